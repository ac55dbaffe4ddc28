//! Session ids and personal API tokens: 256-bit secrets from the operating
//! system's CSPRNG, and the form the store keeps instead of them.
//!
//! OWASP's Session Management Cheat Sheet asks for at least 64 bits of
//! entropy from a CSPRNG in a session id, and ASVS 4.0 (V3.2.2) for at least
//! 64 bits; these have [`SECRET_BYTES`] × 8 = 256, so guessing one is out of
//! reach however many sessions are live. The id carries no meaning (no user
//! id, no time): everything about the session is in the store.
//!
//! The store keeps only the SHA-256 of a secret ([`StorageKey`], 64 hex
//! digits), never the secret itself: someone who reads the database (a
//! backup, a dump, an injection) gets no live session or token, since
//! SHA-256 cannot be undone and 256 random bits cannot be searched. A plain
//! hash is enough here (unlike passwords, which need Argon2): the input is
//! a full-entropy random value, not something a person chose. The server
//! looks a presented secret up by its key, so no secret is ever compared;
//! where two keys must be compared, [`StorageKey`]'s `==` is constant-time.

use base64ct::{Base64UrlUnpadded, Encoding};
use sha2::{Digest, Sha256};
use std::fmt;
use subtle::ConstantTimeEq;

/// Bytes of randomness in a session id or an API token: 32 (256 bits).
pub const SECRET_BYTES: usize = 32;

/// What every personal API token starts with: it names the issuer and the
/// kind (`ch`imera `p`ersonal), so that a leaked token is recognisable to
/// secret scanners and to a person, as lichess's `lip_` tokens are.
pub const API_TOKEN_PREFIX: &str = "chp_";

/// What every analysis worker's key starts with (`ch`imera `w`orker).
pub const WORKER_KEY_PREFIX: &str = "chw_";

/// Characters of base64url (no padding) for [`SECRET_BYTES`] bytes.
const ENCODED_LEN: usize = 43;

fn random_text() -> Result<String, RandomnessError> {
    let mut bytes = [0u8; SECRET_BYTES];
    getrandom::getrandom(&mut bytes).map_err(|e| RandomnessError(e.to_string()))?;
    Ok(Base64UrlUnpadded::encode_string(&bytes))
}

/// Whether `s` is exactly [`SECRET_BYTES`] bytes in canonical base64url
/// without padding (43 characters of `A-Za-z0-9-_`, the last of which
/// encodes 4 bits and 2 zero bits).
fn is_secret_text(s: &str) -> bool {
    let mut buf = [0u8; SECRET_BYTES];
    s.len() == ENCODED_LEN && matches!(Base64UrlUnpadded::decode(s, &mut buf), Ok(b) if b.len() == SECRET_BYTES)
}

/// A session id: what the session cookie holds. 256 random bits as 43
/// characters of base64url without padding.
///
/// `Debug` does not show it, so a session id never reaches a log by
/// accident; [`as_str`](SessionId::as_str) is for the cookie only.
///
/// ```
/// use chimera_auth::SessionId;
/// let id = SessionId::generate().unwrap();
/// assert_eq!(id.as_str().len(), 43);
/// assert_eq!(format!("{id:?}"), "SessionId(..)");
///
/// // A later request: the cookie's value, parsed, gives the store's key.
/// let back = SessionId::parse(id.as_str()).unwrap();
/// assert_eq!(back.storage_key(), id.storage_key());
/// assert!(SessionId::parse("not-a-session").is_none());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SessionId(String);

impl SessionId {
    /// A new session id from the operating system's CSPRNG. Fails only when
    /// the operating system gives no randomness.
    pub fn generate() -> Result<SessionId, RandomnessError> {
        random_text().map(SessionId)
    }

    /// The id a client presented, if it has the shape of one; anything else
    /// (wrong length, other characters) cannot be a session and need not be
    /// looked up.
    pub fn parse(s: &str) -> Option<SessionId> {
        is_secret_text(s).then(|| SessionId(s.to_owned()))
    }

    /// The id, for the cookie.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the store keeps for this session: the SHA-256 of the id.
    pub fn storage_key(&self) -> StorageKey {
        StorageKey::of(&self.0)
    }
}

impl fmt::Debug for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionId(..)")
    }
}

/// A secret shown to its holder once, at creation, and presented as
/// `Authorization: Bearer`: a prefix naming its kind, then 256 random bits
/// as 43 characters of base64url; the store keeps its [`StorageKey`].
macro_rules! bearer_secret {
    ($(#[$doc:meta])* $name:ident, $prefix:expr) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(String);

        impl $name {
            /// A new one from the operating system's CSPRNG. Fails only when
            /// the operating system gives no randomness.
            pub fn generate() -> Result<$name, RandomnessError> {
                random_text().map(|t| $name(format!("{}{t}", $prefix)))
            }

            /// The secret a client presented, if it has the shape of one.
            pub fn parse(s: &str) -> Option<$name> {
                let rest = s.strip_prefix($prefix)?;
                is_secret_text(rest).then(|| $name(s.to_owned()))
            }

            /// The whole secret, prefix included, to show its holder once.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// What the store keeps: the SHA-256 of the whole secret, prefix
            /// included.
            pub fn storage_key(&self) -> StorageKey {
                StorageKey::of(&self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), "(..)"))
            }
        }
    };
}

bearer_secret!(
    /// A personal API token: [`API_TOKEN_PREFIX`] and 256 random bits as 43
    /// characters of base64url, 47 characters in all, for the
    /// lichess-compatible token API (`Authorization: Bearer chp_...`).
    ///
    /// ```
    /// use chimera_auth::ApiToken;
    /// let token = ApiToken::generate().unwrap();
    /// assert!(token.as_str().starts_with("chp_"));
    /// assert_eq!(token.as_str().len(), 47);
    /// assert_eq!(ApiToken::parse(token.as_str()).unwrap().storage_key(), token.storage_key());
    /// assert!(ApiToken::parse(&token.as_str()[4..]).is_none()); // no prefix
    /// ```
    ApiToken,
    API_TOKEN_PREFIX
);

bearer_secret!(
    /// An analysis worker's key ([`WORKER_KEY_PREFIX`] and 256 random
    /// bits), made by the server's operator for one worker (`chimera
    /// worker-key add`) and presented by `chimera worker`.
    ///
    /// ```
    /// use chimera_auth::{ApiToken, WorkerKey};
    /// let key = WorkerKey::generate().unwrap();
    /// assert!(key.as_str().starts_with("chw_"));
    /// assert!(WorkerKey::parse(key.as_str()).is_some());
    /// assert!(ApiToken::parse(key.as_str()).is_none()); // not a personal token
    /// ```
    WorkerKey,
    WORKER_KEY_PREFIX
);

/// The SHA-256 of a secret: what the store keeps and looks secrets up by.
/// Written as 64 lower-case hex digits ([`to_hex`](StorageKey::to_hex)) for
/// a text column with a unique index. `==` is constant-time.
///
/// ```
/// use chimera_auth::StorageKey;
/// let key = StorageKey::of("abc");
/// assert_eq!(key.to_hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// assert_eq!(StorageKey::from_hex(&key.to_hex()), Some(key));
/// ```
#[derive(Clone, Copy)]
pub struct StorageKey([u8; 32]);

impl StorageKey {
    /// The key of a secret's text (as the client sends it).
    pub fn of(secret: &str) -> StorageKey {
        StorageKey(Sha256::digest(secret.as_bytes()).into())
    }

    /// The 32 bytes, for a binary column.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// 64 lower-case hex digits, for a text column.
    pub fn to_hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut s = String::with_capacity(64);
        for b in self.0 {
            s.push(DIGITS[(b >> 4) as usize] as char);
            s.push(DIGITS[(b & 15) as usize] as char);
        }
        s
    }

    /// A key read back from [`to_hex`](StorageKey::to_hex)'s form (either
    /// case); `None` for anything else.
    pub fn from_hex(s: &str) -> Option<StorageKey> {
        let s = s.as_bytes();
        if s.len() != 64 {
            return None;
        }
        let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
        let mut out = [0u8; 32];
        for (i, pair) in s.chunks(2).enumerate() {
            out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(StorageKey(out))
    }
}

impl PartialEq for StorageKey {
    fn eq(&self, other: &StorageKey) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl Eq for StorageKey {}

impl fmt::Debug for StorageKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StorageKey({})", self.to_hex())
    }
}

impl fmt::Display for StorageKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// The operating system gave no randomness (`getrandom` failed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomnessError(String);

impl fmt::Display for RandomnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the operating system gave no randomness: {}", self.0)
    }
}

impl std::error::Error for RandomnessError {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn bytes_of(s: &str) -> Vec<u8> {
        Base64UrlUnpadded::decode_vec(s).unwrap()
    }

    #[test]
    fn session_ids_are_43_base64url_characters_of_32_bytes() {
        for _ in 0..100 {
            let id = SessionId::generate().unwrap();
            let s = id.as_str();
            assert_eq!(s.len(), 43, "{s}");
            assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{s}");
            assert!(!s.contains('='), "no padding");
            assert_eq!(bytes_of(s).len(), 32);
        }
    }

    #[test]
    fn session_ids_look_uniformly_random() {
        const N: usize = 2000;
        let ids: Vec<SessionId> = (0..N).map(|_| SessionId::generate().unwrap()).collect();
        let distinct: HashSet<&str> = ids.iter().map(|i| i.as_str()).collect();
        assert_eq!(distinct.len(), N);
        // Each of the 256 bit positions is set in about half of the ids: with
        // 2000 draws a fair bit lands within 0.5 ± 0.06 (5.4 standard
        // deviations) except with negligible chance.
        let mut ones = [0usize; 256];
        for id in &ids {
            for (i, b) in bytes_of(id.as_str()).iter().enumerate() {
                for bit in 0..8 {
                    ones[i * 8 + bit] += usize::from(b >> bit & 1 == 1);
                }
            }
        }
        for (i, &n) in ones.iter().enumerate() {
            let p = n as f64 / N as f64;
            assert!((0.44..0.56).contains(&p), "bit {i} set in {p:.3} of ids");
        }
        let total: usize = ones.iter().sum();
        let p = total as f64 / (N * 256) as f64;
        assert!((0.495..0.505).contains(&p), "{p}");
    }

    #[test]
    fn the_stored_form_is_sha256_hex_and_differs_from_the_id() {
        let id = SessionId::generate().unwrap();
        let key = id.storage_key();
        let hex = key.to_hex();
        assert_eq!(hex.len(), 64);
        assert!(hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        assert_ne!(hex, id.as_str());
        assert!(!hex.contains(id.as_str()) && !id.as_str().contains(&hex));
        assert_eq!(key.as_bytes().as_slice(), Sha256::digest(id.as_str().as_bytes()).as_slice());
        // Same id, same key; another id, another key.
        assert_eq!(SessionId::parse(id.as_str()).unwrap().storage_key(), key);
        assert_ne!(SessionId::generate().unwrap().storage_key(), key);
        assert_eq!(key.to_string(), hex);
    }

    #[test]
    fn sha256_matches_a_known_answer() {
        // FIPS 180-2's example "abc".
        assert_eq!(StorageKey::of("abc").to_hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn api_tokens_have_the_prefix_and_256_bits() {
        let t = ApiToken::generate().unwrap();
        let s = t.as_str();
        assert!(s.starts_with(API_TOKEN_PREFIX));
        assert_eq!(s.len(), API_TOKEN_PREFIX.len() + 43);
        assert_eq!(bytes_of(&s[4..]).len(), 32);
        assert_ne!(t.storage_key().to_hex(), s);
        assert_eq!(t.storage_key(), StorageKey::of(s));
        assert_ne!(ApiToken::generate().unwrap(), t);
    }

    #[test]
    fn parse_refuses_what_is_not_a_secret() {
        let id = SessionId::generate().unwrap();
        let s = id.as_str();
        assert!(SessionId::parse(&s[..42]).is_none());
        assert!(SessionId::parse(&format!("{s}A")).is_none());
        assert!(SessionId::parse(&format!("{}=", &s[..42])).is_none());
        assert!(SessionId::parse(&s.replace(|c: char| c.is_ascii_alphanumeric(), "+")).is_none());
        assert!(SessionId::parse("").is_none());
        // The last character carries 4 bits and 2 zero bits: 'B' (000001) is
        // not canonical.
        assert!(SessionId::parse(&format!("{}A", "A".repeat(42))).is_some());
        assert!(SessionId::parse(&format!("{}B", "A".repeat(42))).is_none());
        // A session id is not a token and a token is not a session id.
        assert!(ApiToken::parse(s).is_none());
        let t = ApiToken::generate().unwrap();
        assert!(SessionId::parse(t.as_str()).is_none());
        assert!(ApiToken::parse(&t.as_str().replace("chp_", "lip_")).is_none());
    }

    #[test]
    fn debug_never_shows_a_secret() {
        let id = SessionId::generate().unwrap();
        let t = ApiToken::generate().unwrap();
        assert!(!format!("{id:?}").contains(id.as_str()));
        assert!(!format!("{t:?}").contains(&t.as_str()[4..]));
    }

    #[test]
    fn storage_keys_compare_by_value() {
        let a = StorageKey::of("one");
        let mut bytes = *a.as_bytes();
        assert_eq!(StorageKey(bytes), a);
        bytes[31] ^= 1;
        assert_ne!(StorageKey(bytes), a);
        assert_eq!(StorageKey::from_hex(&a.to_hex().to_uppercase()), Some(a));
        assert_eq!(StorageKey::from_hex("00"), None);
        assert_eq!(StorageKey::from_hex(&"g".repeat(64)), None);
        assert_eq!(StorageKey::from_hex(&"é".repeat(32)), None);
    }

    proptest! {
        /// Hex round-trips for any key.
        #[test]
        fn hex_round_trips(bytes in any::<[u8; 32]>()) {
            let k = StorageKey(bytes);
            prop_assert_eq!(StorageKey::from_hex(&k.to_hex()), Some(k));
        }

        /// Any 32 bytes, encoded, parse as a session id and as a token.
        #[test]
        fn encoded_secrets_parse(bytes in any::<[u8; 32]>()) {
            let s = Base64UrlUnpadded::encode_string(&bytes);
            prop_assert!(SessionId::parse(&s).is_some());
            let token = format!("chp_{s}");
            prop_assert!(ApiToken::parse(&token).is_some());
        }
    }
}
