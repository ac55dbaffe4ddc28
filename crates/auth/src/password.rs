//! The password policy for new passwords (sign-up, change, reset), after
//! NIST SP 800-63B §5.1.1.2 ("memorized secret verifiers"):
//!
//! - at least [`MIN_PASSWORD_CHARS`] (8) characters, counted as Unicode
//!   scalar values (code points), as 800-63B asks;
//! - at most [`MAX_PASSWORD_CHARS`] (128): 800-63B asks verifiers to allow at
//!   least 64, OWASP ASVS 4.0 (V2.1.2) to allow 64 and deny more than 128.
//!   The bound keeps the bytes hashed for one attempt small: Argon2id
//!   pre-hashes the password with BLAKE2b, whose cost grows with its length,
//!   and a log-in form is no place for a megabyte;
//! - no composition rules (no "one digit, one capital"): 800-63B says
//!   verifiers should not impose them; any character is allowed, spaces and
//!   emoji included;
//! - not on a list of common passwords, and not the username or the
//!   service's name, nor either of those with only digits and symbols
//!   around it (800-63B: "context-specific words, such as the name of the
//!   service, the username, and derivatives thereof").
//!
//! Passwords are normalised to Unicode NFKC ([`normalize_password`]) before
//! they are counted, compared or hashed, as 800-63B recommends for Unicode
//! secrets, so the same password typed on two keyboards that compose `é`
//! differently is the same password.
//!
//! The comparison with the common list ignores case: the list was built
//! from lower-cased passwords (their counts merged across cases), and
//! guessing tools try `Password` and `PASSWORD` right after `password`, so a
//! case variant of a common password is as weak as the original. 800-63B
//! leaves the comparison to the verifier; refusing case variants refuses
//! only passwords an attacker would try early.

use crate::username::Username;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

/// The fewest characters (Unicode scalar values, after NFKC) a new password
/// may have: 800-63B §5.1.1.2's minimum for a password the person chose.
///
/// OWASP ASVS 4.0.3 V2.1.1 asks for 12 at every level, and ASVS 5.0 (V6.2.1)
/// for 8 with 15 strongly recommended; Chimera follows 800-63B and ASVS 5.0.
/// Raising it is this one constant (the common list still applies).
pub const MIN_PASSWORD_CHARS: usize = 8;

/// The most characters a new password may have; see the module notes for
/// why 128.
pub const MAX_PASSWORD_CHARS: usize = 128;

/// Words of the service itself that a password may not be, alone or with
/// only digits and symbols around it (`Chimera2024!`).
pub const SERVICE_WORDS: &[&str] = &["chimera", "chimerachess", "chessvariants"];

/// The shipped list: one lower-cased password a line after a header of `#`
/// lines that names its source (scripts/make-common-passwords.sh).
const COMMON_PASSWORDS_TXT: &str = include_str!("../data/common-passwords.txt");

static COMMON_PASSWORDS: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| COMMON_PASSWORDS_TXT.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect());

/// How many passwords the shipped common list holds (10,000, each of at
/// least 8 characters).
///
/// ```
/// assert_eq!(chimera_auth::common_password_count(), 10_000);
/// ```
pub fn common_password_count() -> usize {
    COMMON_PASSWORDS.len()
}

/// The password in Unicode NFKC, the form that is counted, compared and
/// hashed. Borrowed when it is already in that form (any ASCII password is).
///
/// ```
/// use chimera_auth::normalize_password;
/// // "é" as 'e' + a combining acute accent becomes the one character 'é'.
/// assert_eq!(normalize_password("caf\u{65}\u{301}"), "caf\u{e9}");
/// // Compatibility forms fold too: a full-width 'Ａ' is 'A'.
/// assert_eq!(normalize_password("\u{ff21}"), "A");
/// ```
pub fn normalize_password(password: &str) -> Cow<'_, str> {
    if is_nfkc_quick(password.chars()) == IsNormalized::Yes {
        Cow::Borrowed(password)
    } else {
        Cow::Owned(password.nfkc().collect())
    }
}

/// Whether the password is on the shipped list of common passwords,
/// ignoring case, or is one of them with only digits, punctuation, symbols
/// or spaces added at its ends (`Sunshine!!`, `2020baseball`). The server
/// may also ask this at log-in (ASVS V2.1.7) and then ask the person to
/// choose a new password.
///
/// ```
/// use chimera_auth::is_common_password;
/// assert!(is_common_password("password"));
/// assert!(is_common_password("PassWord"));
/// assert!(is_common_password("baseball2024!"));
/// assert!(!is_common_password("plum orbit lantern hums"));
/// ```
pub fn is_common_password(password: &str) -> bool {
    let lower = normalize_password(password).to_lowercase();
    let core = core(&lower);
    COMMON_PASSWORDS.contains(lower.as_str()) || COMMON_PASSWORDS.contains(core)
}

/// Checks a new password (at sign-up, change or reset) for `username`'s
/// account against the policy; see the module notes for each rule and its
/// source. The first rule broken is reported.
///
/// ```
/// use chimera_auth::{check_new_password, PasswordError, Username};
/// let alice: Username = "Alice".parse().unwrap();
///
/// assert_eq!(check_new_password("plum orbit lantern hums", &alice), Ok(()));
/// assert_eq!(check_new_password("éèêëàâäç", &alice), Ok(())); // 8 characters, 16 bytes
/// assert_eq!(check_new_password("short", &alice), Err(PasswordError::TooShort { min: 8, len: 5 }));
/// assert_eq!(check_new_password("iloveyou", &alice), Err(PasswordError::Common));
/// assert_eq!(check_new_password("ALICE123!", &alice), Err(PasswordError::ContainsUsername));
/// ```
pub fn check_new_password(password: &str, username: &Username) -> Result<(), PasswordError> {
    let normal = normalize_password(password);
    let len = normal.chars().count();
    if len < MIN_PASSWORD_CHARS {
        return Err(PasswordError::TooShort { min: MIN_PASSWORD_CHARS, len });
    }
    if len > MAX_PASSWORD_CHARS {
        return Err(PasswordError::TooLong { max: MAX_PASSWORD_CHARS, len });
    }
    let lower = normal.to_lowercase();
    let pw_core = core(&lower);
    let name = username.key();
    let name_core = core(&name);
    let is = |word: &str| !word.is_empty() && (lower == word || pw_core == word);
    if is(&name) || is(name_core) {
        return Err(PasswordError::ContainsUsername);
    }
    if SERVICE_WORDS.iter().any(|w| is(w)) {
        return Err(PasswordError::ServiceName);
    }
    if COMMON_PASSWORDS.contains(lower.as_str()) || COMMON_PASSWORDS.contains(pw_core) {
        return Err(PasswordError::Common);
    }
    Ok(())
}

/// The password without the digits, punctuation, symbols and spaces at its
/// two ends: what is left of `Summer2024!` is `summer`. Empty when nothing
/// but those is there.
fn core(lower: &str) -> &str {
    lower.trim_matches(|c: char| !c.is_alphabetic())
}

/// Why a new password was refused. The `Display` text is written for the
/// person choosing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordError {
    /// Fewer than [`MIN_PASSWORD_CHARS`] characters.
    TooShort {
        /// The minimum.
        min: usize,
        /// The characters it has.
        len: usize,
    },
    /// More than [`MAX_PASSWORD_CHARS`] characters.
    TooLong {
        /// The maximum.
        max: usize,
        /// The characters it has.
        len: usize,
    },
    /// The username, or the username with only digits and symbols around it.
    ContainsUsername,
    /// One of [`SERVICE_WORDS`], alone or with only digits and symbols around it.
    ServiceName,
    /// On the common-password list (ignoring case), or one of its entries
    /// with only digits and symbols around it.
    Common,
}

impl fmt::Display for PasswordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasswordError::TooShort { min, len } => {
                write!(f, "Your password needs at least {min} characters; this one has {len}.")
            }
            PasswordError::TooLong { max, len } => {
                write!(f, "Your password can have at most {max} characters; this one has {len}.")
            }
            PasswordError::ContainsUsername => {
                f.write_str("Your password cannot be your username, even with digits or symbols added.")
            }
            PasswordError::ServiceName => {
                f.write_str("Your password cannot be the name of this site, even with digits or symbols added.")
            }
            PasswordError::Common => f.write_str(
                "This password is on a list of commonly used passwords, which attackers try first; \
                 please choose another (a few unrelated words make a strong one).",
            ),
        }
    }
}

impl std::error::Error for PasswordError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(s: &str) -> Username {
        s.parse().unwrap()
    }

    fn check(pw: &str) -> Result<(), PasswordError> {
        check_new_password(pw, &user("alice"))
    }

    #[test]
    fn length_counts_unicode_scalar_values() {
        assert_eq!(check("abcdefg"), Err(PasswordError::TooShort { min: 8, len: 7 }));
        assert_eq!(check("plumorbi"), Ok(()));
        // Two bytes each in UTF-8: 8 characters pass, 7 do not (16 and 14 bytes).
        assert_eq!(check("ñöüßçéåø"), Ok(()));
        assert_eq!(check("ñöüßçéå"), Err(PasswordError::TooShort { min: 8, len: 7 }));
        // Four bytes each: 8 emoji (32 bytes) pass, 7 (28 bytes) do not.
        assert_eq!(check("😀🐢🦊🎲🐉🐉🐉🐉"), Ok(()));
        assert_eq!(check("😀🐢🦊🎲🐉🐉🐉"), Err(PasswordError::TooShort { min: 8, len: 7 }));
        // Three bytes each (CJK), and a mix.
        assert_eq!(check("象棋变体很好玩啊"), Ok(()));
        assert_eq!(check("a😀b🐢cé"), Err(PasswordError::TooShort { min: 8, len: 6 }));
        assert_eq!(check(""), Err(PasswordError::TooShort { min: 8, len: 0 }));
    }

    #[test]
    fn length_is_counted_after_normalisation() {
        // 'e' + combining acute is one character once composed: 7, not 8.
        let decomposed = "cafe\u{301}xyz";
        assert_eq!(decomposed.chars().count(), 8);
        assert_eq!(check(decomposed), Err(PasswordError::TooShort { min: 8, len: 7 }));
        assert_eq!(normalize_password("abc"), Cow::Borrowed("abc"));
    }

    #[test]
    fn up_to_128_characters_are_allowed() {
        let at_max = "correct horse ".repeat(10)[..128].to_string();
        assert_eq!(at_max.chars().count(), 128);
        assert_eq!(check(&at_max), Ok(()));
        assert_eq!(check(&format!("{at_max}x")), Err(PasswordError::TooLong { max: 128, len: 129 }));
        // 64 (800-63B's "at least 64") is comfortably allowed, in 4-byte characters too.
        assert_eq!(check(&"🐉♞".repeat(32)), Ok(()));
        assert_eq!(check(&"🐉".repeat(129)), Err(PasswordError::TooLong { max: 128, len: 129 }));
    }

    #[test]
    fn no_composition_rules() {
        for pw in ["aaaaaaaz", "plum orbit lantern hums", "ALLCAPSWORDSHERE", "zq;x!,@#", "        x"] {
            assert_eq!(check(pw), Ok(()), "{pw:?}");
        }
    }

    #[test]
    fn common_list_refuses_known_entries_in_any_case() {
        for pw in ["password", "Password", "PASSWORD", "12345678", "iloveyou", "sunshine", "trustno1", "qwertyuiop"] {
            assert_eq!(check(pw), Err(PasswordError::Common), "{pw}");
            assert!(is_common_password(pw), "{pw}");
        }
        // Entries deep in the list, not only the first few.
        assert!(is_common_password("dalmatio"));
        assert!(is_common_password("jasmine2"));
    }

    #[test]
    fn common_entries_with_digits_or_symbols_around_them_are_refused() {
        for pw in ["password1!", "Sunshine2024", "!!football!!", "1990princess", "Baseball 99"] {
            assert_eq!(check(pw), Err(PasswordError::Common), "{pw}");
        }
        // Inside a longer phrase, a common word is harmless.
        assert_eq!(check("my football team plays on sunday"), Ok(()));
    }

    #[test]
    fn long_random_phrases_are_accepted() {
        for pw in
            ["plum orbit lantern hums", "Xq7#mR2!vLp9@wZ4", "seven orange knights dance quietly", "tɕʰɥɛn-ʂɨ bǐ-sài"]
        {
            assert!(!is_common_password(pw), "{pw}");
            assert_eq!(check(pw), Ok(()), "{pw}");
        }
    }

    #[test]
    fn the_username_and_its_derivatives_are_refused() {
        let bob = user("BobbyFischer");
        for pw in ["bobbyfischer", "BOBBYFISCHER", "BobbyFischer1972", "!bobbyfischer!"] {
            assert_eq!(check_new_password(pw, &bob), Err(PasswordError::ContainsUsername), "{pw}");
        }
        // A name with digits: the bare name with other digits is refused too.
        let n = user("Magnus1990");
        assert_eq!(check_new_password("magnus1990", &n), Err(PasswordError::ContainsUsername));
        assert_eq!(check_new_password("Magnus2024!!", &n), Err(PasswordError::ContainsUsername));
        // A phrase that only contains the name is fine.
        assert_eq!(check_new_password("bobbyfischer plays the najdorf", &bob), Ok(()));
        // Someone else's name is fine.
        assert_eq!(check_new_password("bobbyfischer", &user("Alice")), Ok(()));
    }

    #[test]
    fn the_service_name_is_refused() {
        for pw in ["chimera1", "Chimera2024!", "CHIMERACHESS", "chessvariants!"] {
            assert_eq!(check(pw), Err(PasswordError::ServiceName), "{pw}");
        }
    }

    #[test]
    fn the_shipped_list_has_10000_lower_case_entries_of_8_or_more() {
        assert_eq!(common_password_count(), 10_000);
        let entries: Vec<&str> = COMMON_PASSWORDS_TXT.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(entries.len(), 10_000, "no duplicates, no blank lines");
        for e in &entries {
            assert!(e.chars().count() >= MIN_PASSWORD_CHARS, "{e:?}");
            assert_eq!(*e, e.to_lowercase(), "{e:?}");
            assert_eq!(*e, e.trim(), "{e:?}");
            assert_eq!(normalize_password(e), *e, "{e:?}");
        }
        // The header names the source and the licence.
        let header: Vec<&str> = COMMON_PASSWORDS_TXT.lines().take_while(|l| l.starts_with('#')).collect();
        let header = header.join("\n");
        assert!(header.contains("@zxcvbn-ts/language-common@4.1.3") && header.contains("MIT"), "{header}");
    }

    #[test]
    fn messages_are_sentences() {
        let errors = [
            PasswordError::TooShort { min: 8, len: 3 },
            PasswordError::TooLong { max: 128, len: 200 },
            PasswordError::ContainsUsername,
            PasswordError::ServiceName,
            PasswordError::Common,
        ];
        for e in errors {
            let m = e.to_string();
            assert!(m.starts_with(char::is_uppercase) && m.ends_with(['.', ')']), "{m}");
        }
        assert_eq!(
            PasswordError::TooShort { min: 8, len: 3 }.to_string(),
            "Your password needs at least 8 characters; this one has 3."
        );
    }
}
