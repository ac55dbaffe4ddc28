//! Password hashing: Argon2id with the OWASP Password Storage Cheat Sheet's
//! parameters, stored as a PHC string.
//!
//! The cheat sheet recommends Argon2id (the variant that resists both GPU
//! cracking and side channels) with at least 19 MiB of memory, 2 passes and
//! 1 degree of parallelism; these are [`ARGON2_MEMORY_KIB`],
//! [`ARGON2_ITERATIONS`] and [`ARGON2_PARALLELISM`]. Each hash has its own
//! random [`SALT_LEN`]-byte salt from the operating system's CSPRNG, so equal
//! passwords never share a hash, and the stored string names the algorithm,
//! version and parameters it was made with:
//!
//! ```text
//! $argon2id$v=19$m=19456,t=2,p=1$<salt, base64>$<32-byte output, base64>
//! ```
//!
//! so [`verify_password`] keeps working after the parameters are raised, and
//! [`needs_rehash`] tells the server to store a new hash at the next
//! successful log-in (the only moment it has the password).
//!
//! Every function here costs one Argon2id computation (about 20-50 ms of a
//! core and 19 MiB): call them from a blocking thread
//! (`tokio::task::spawn_blocking`), not from an async task.

use crate::password::{normalize_password, MAX_PASSWORD_CHARS};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::fmt;

/// Argon2id's memory cost in KiB: 19 MiB, the OWASP cheat sheet's minimum
/// for Argon2id.
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
/// Argon2id's passes over memory (time cost): the cheat sheet's 2 for 19 MiB.
pub const ARGON2_ITERATIONS: u32 = 2;
/// Argon2id's lanes: 1, so one log-in uses one core and a busy server
/// serves as many log-ins at once as it has cores.
pub const ARGON2_PARALLELISM: u32 = 1;
/// Bytes of Argon2id output stored: 32 (256 bits).
pub const ARGON2_OUTPUT_LEN: usize = 32;
/// Bytes of random salt per hash: 16 (128 bits), RFC 9106's recommendation.
pub const SALT_LEN: usize = 16;

/// A hash at today's parameters of a random password that was thrown away
/// when the hash was made. [`verify_dummy`] checks against it, so a log-in
/// for a name that does not exist costs what a real one costs. A test keeps
/// its parameters equal to today's.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$LRnthPMMLCynoQQTHQ/R4Q$4oz3bVoyge2ed91f1aqLV+RDsZ4E5wYN8mroBOosUrU";

fn argon2() -> Argon2<'static> {
    let params = Params::new(ARGON2_MEMORY_KIB, ARGON2_ITERATIONS, ARGON2_PARALLELISM, Some(ARGON2_OUTPUT_LEN))
        .expect("the Argon2 parameters are within Argon2's bounds");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password for storage: Argon2id at today's parameters with a new
/// random salt, as a PHC string (at most about 100 ASCII bytes) for the
/// account's row. The password is normalised to NFKC first
/// ([`normalize_password`]); check it with
/// [`check_new_password`](crate::check_new_password) before.
///
/// Fails only when the operating system gives no randomness.
///
/// ```
/// let phc = chimera_auth::hash_password("plum orbit lantern hums").unwrap();
/// assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
/// assert!(chimera_auth::verify_password(&phc, "plum orbit lantern hums"));
/// assert!(!chimera_auth::verify_password(&phc, "plum orbit lantern hum"));
/// ```
pub fn hash_password(password: &str) -> Result<String, HashError> {
    let mut salt = [0u8; SALT_LEN];
    getrandom::getrandom(&mut salt).map_err(|e| HashError(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| HashError(e.to_string()))?;
    let normal = normalize_password(password);
    let hash = argon2().hash_password(normal.as_bytes(), &salt).map_err(|e| HashError(e.to_string()))?;
    Ok(hash.to_string())
}

/// Whether `password` is the one `phc` was made from, at the parameters
/// written in `phc`. The comparison of the outputs is constant-time (the
/// `password-hash` crate's `Output` compares with `subtle`).
///
/// False for a `phc` that is not a well-formed Argon2 hash, and, without
/// hashing, for a password of more than [`MAX_PASSWORD_CHARS`] characters
/// after normalisation: no such password can have been set, and refusing it
/// early keeps a huge form field from costing a long hash (the answer says
/// nothing about the account, and [`verify_dummy`] answers the same way).
pub fn verify_password(phc: &str, password: &str) -> bool {
    // Normalising is linear in the input; a password that is 128 characters
    // once normalised is far below this many bytes in any composition.
    if password.len() > 64 * 1024 {
        return false;
    }
    let normal = normalize_password(password);
    if normal.chars().count() > MAX_PASSWORD_CHARS {
        return false;
    }
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    if Algorithm::try_from(parsed.algorithm).is_err() {
        return false;
    }
    argon2().verify_password(normal.as_bytes(), &parsed).is_ok()
}

/// Costs what [`verify_password`] costs at today's parameters and always
/// answers false: for a log-in with a name that has no account (or an
/// account without a password), so that the time of the answer does not
/// tell whether the name exists (OWASP Authentication Cheat Sheet, "login
/// throttling"/"authentication responses").
///
/// ```
/// assert!(!chimera_auth::verify_dummy("anything at all"));
/// ```
pub fn verify_dummy(password: &str) -> bool {
    let matched = verify_password(DUMMY_HASH, std::hint::black_box(password));
    std::hint::black_box(matched);
    false
}

/// Whether a stored hash should be replaced at the next successful log-in:
/// another algorithm or version, other parameters (memory, passes, lanes,
/// output length), another salt length, or a string that does not parse.
///
/// ```
/// use chimera_auth::{hash_password, needs_rehash};
/// assert!(!needs_rehash(&hash_password("plum orbit lantern hums").unwrap()));
/// // Older argon2 crates' default (4 MiB, 3 passes), say from an import.
/// assert!(needs_rehash("$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$UWmFLqgJHGdjs7kyOnjVS8JeVRsVzxLMbpPgfoN3qfE"));
/// ```
pub fn needs_rehash(phc: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return true;
    };
    if Algorithm::try_from(parsed.algorithm) != Ok(Algorithm::Argon2id) {
        return true;
    }
    if parsed.version != Some(Version::V0x13.into()) {
        return true;
    }
    let Ok(params) = Params::try_from(&parsed) else {
        return true;
    };
    let salt_len = parsed.salt.and_then(|s| s.decode_b64(&mut [0u8; 64]).ok().map(|b| b.len()));
    params.m_cost() != ARGON2_MEMORY_KIB
        || params.t_cost() != ARGON2_ITERATIONS
        || params.p_cost() != ARGON2_PARALLELISM
        || params.output_len() != Some(ARGON2_OUTPUT_LEN)
        || !params.keyid().is_empty()
        || !params.data().is_empty()
        || salt_len != Some(SALT_LEN)
}

/// Hashing failed: the operating system gave no randomness for the salt
/// (or, never with this crate's parameters, Argon2 refused them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashError(String);

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "could not hash the password: {}", self.0)
    }
}

impl std::error::Error for HashError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// The parts of a PHC string: algorithm, version, parameters, salt, output.
    fn parts(phc: &str) -> Vec<&str> {
        let p: Vec<&str> = phc.split('$').collect();
        assert_eq!(p.len(), 6, "{phc}");
        assert_eq!(p[0], "", "{phc}");
        p[1..].to_vec()
    }

    fn b64_len(s: &str) -> usize {
        use base64ct::{Base64Unpadded, Encoding};
        Base64Unpadded::decode_vec(s).unwrap().len()
    }

    #[test]
    fn hashes_use_exactly_the_owasp_parameters() {
        let phc = hash_password("plum orbit lantern hums").unwrap();
        let p = parts(&phc);
        assert_eq!(p[0], "argon2id");
        assert_eq!(p[1], "v=19");
        assert_eq!(p[2], "m=19456,t=2,p=1");
        assert_eq!(b64_len(p[3]), 16, "salt bytes");
        assert_eq!(b64_len(p[4]), 32, "output bytes");
        assert!(!needs_rehash(&phc));
    }

    #[test]
    fn verify_accepts_the_password_and_nothing_else() {
        let phc = hash_password("Tal's sacrifice: Nf5!").unwrap();
        assert!(verify_password(&phc, "Tal's sacrifice: Nf5!"));
        for wrong in ["Tal's sacrifice: Nf5", "tal's sacrifice: nf5!", "", "Tal's sacrifice: Nf5! "] {
            assert!(!verify_password(&phc, wrong), "{wrong:?}");
        }
    }

    #[test]
    fn salts_differ_so_equal_passwords_get_different_hashes() {
        let a = hash_password("plum orbit lantern hums").unwrap();
        let b = hash_password("plum orbit lantern hums").unwrap();
        assert_ne!(a, b);
        assert_ne!(parts(&a)[3], parts(&b)[3]);
        assert!(verify_password(&a, "plum orbit lantern hums") && verify_password(&b, "plum orbit lantern hums"));
    }

    #[test]
    fn unicode_passwords_verify_in_either_composition() {
        // Hashed as typed with a composed 'é', verified as typed with 'e' + accent.
        let phc = hash_password("mot de passe \u{e9}t\u{e9}").unwrap();
        assert!(verify_password(&phc, "mot de passe e\u{301}te\u{301}"));
        assert!(!verify_password(&phc, "mot de passe ete"));
        let emoji = hash_password("🐉🐢🦊🎲♞♛♜♝").unwrap();
        assert!(verify_password(&emoji, "🐉🐢🦊🎲♞♛♜♝"));
    }

    #[test]
    fn needs_rehash_detects_other_parameters() {
        let now = hash_password("plum orbit lantern hums").unwrap();
        assert!(!needs_rehash(&now));
        let p = parts(&now);
        let with = |alg: &str, ver: &str, params: &str| format!("${alg}${ver}${params}${}${}", p[3], p[4]);
        assert!(!needs_rehash(&with("argon2id", "v=19", "m=19456,t=2,p=1")));
        assert!(needs_rehash(&with("argon2id", "v=19", "m=4096,t=3,p=1")), "less memory");
        assert!(needs_rehash(&with("argon2id", "v=19", "m=65536,t=2,p=1")), "more memory");
        assert!(needs_rehash(&with("argon2id", "v=19", "m=19456,t=3,p=1")), "more passes");
        assert!(needs_rehash(&with("argon2id", "v=19", "m=19456,t=2,p=2")), "more lanes");
        assert!(needs_rehash(&with("argon2i", "v=19", "m=19456,t=2,p=1")), "Argon2i");
        assert!(needs_rehash(&with("argon2d", "v=19", "m=19456,t=2,p=1")), "Argon2d");
        assert!(needs_rehash(&with("argon2id", "v=16", "m=19456,t=2,p=1")), "version 1.0");
        // A shorter output or salt.
        assert!(needs_rehash(&format!("$argon2id$v=19$m=19456,t=2,p=1${}$c2hvcnRvdXRwdXRzaG9ydA", p[3])));
        assert!(needs_rehash(&format!("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ${}", p[4])));
        // Not a hash at all, or another scheme.
        assert!(needs_rehash(""));
        assert!(needs_rehash("plain text"));
        assert!(needs_rehash("$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"));
    }

    #[test]
    fn hashes_at_old_parameters_still_verify() {
        let old_params = Params::new(4096, 3, 1, Some(32)).unwrap();
        let old = Argon2::new(Algorithm::Argon2id, Version::V0x13, old_params)
            .hash_password(b"plum orbit lantern hums", &SaltString::encode_b64(&[7u8; 16]).unwrap())
            .unwrap()
            .to_string();
        assert!(old.contains("m=4096,t=3,p=1"));
        assert!(verify_password(&old, "plum orbit lantern hums"));
        assert!(!verify_password(&old, "plum orbit lantern hum"));
        assert!(needs_rehash(&old));
    }

    #[test]
    fn malformed_hashes_and_huge_passwords_are_refused() {
        assert!(!verify_password("", "x"));
        assert!(!verify_password("not a hash", "not a hash"));
        assert!(!verify_password("$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW", "x"));
        let phc = hash_password("plum orbit lantern hums").unwrap();
        for huge in ["x".repeat(129), "🐉".repeat(129), "x".repeat(1 << 20)] {
            let start = Instant::now();
            assert!(!verify_password(&phc, &huge));
            assert!(!verify_dummy(&huge));
            assert!(start.elapsed() < Duration::from_millis(5), "refused without hashing");
        }
        // 128 characters, the most a password can have, are hashed and verified.
        let longest = "🐉".repeat(128);
        assert!(verify_password(&hash_password(&longest).unwrap(), &longest));
        // In 128 Hangul syllables typed as 384 jamo (1,152 bytes), too.
        let jamo = "\u{1100}\u{1161}\u{11a8}".repeat(128);
        assert_eq!(normalize_password(&jamo).chars().count(), 128);
        assert!(verify_password(&hash_password(&"\u{ac01}".repeat(128)).unwrap(), &jamo));
    }

    #[test]
    fn the_dummy_hash_is_at_todays_parameters_and_never_matches() {
        assert!(!needs_rehash(DUMMY_HASH), "regenerate DUMMY_HASH at today's parameters");
        assert!(!verify_dummy(""));
        assert!(!verify_dummy("password"));
    }

    /// The median of `n` timings of `f`.
    fn median(n: usize, mut f: impl FnMut()) -> Duration {
        let mut times: Vec<Duration> = (0..n)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect();
        times.sort();
        times[n / 2]
    }

    #[test]
    fn a_dummy_verify_costs_what_a_real_one_costs() {
        let phc = hash_password("plum orbit lantern hums").unwrap();
        // Interleave so that a burst of load on the machine hits both.
        let mut real = Vec::new();
        let mut dummy = Vec::new();
        for _ in 0..3 {
            real.push(median(3, || assert!(!verify_password(&phc, "wrong guess"))));
            dummy.push(median(3, || assert!(!verify_dummy("wrong guess"))));
        }
        real.sort();
        dummy.sort();
        let ratio = dummy[1].as_secs_f64() / real[1].as_secs_f64();
        // Equal work; the bounds only allow for a noisy machine (a dummy that
        // skipped hashing would be a thousand times faster).
        assert!((1.0 / 3.0..3.0).contains(&ratio), "dummy {:?} vs real {:?}", dummy[1], real[1]);
    }
}
