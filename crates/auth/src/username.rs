//! Usernames: what a new account may be called, and the key that makes
//! names unique without regard to case.
//!
//! The shape is lichess's rule for new names (lila's `nameRules`, used by
//! its sign-up form): 2 to 20 characters of `A-Za-z0-9_-`, starting with a
//! letter, ending with a letter or a digit, and never two of `_`/`-` in a
//! row. So a name is never all digits (it could be read as an id or a
//! rating), never starts with a separator, and `a__b`, `a_-b` or `-a` are
//! refused. One regular expression says it all, with the length:
//! [`USERNAME_REGEX`].

use std::fmt;
use std::str::FromStr;

/// The regular expression every accepted name matches, in addition to
/// having 2 to 20 characters: a letter, then one or more groups of an
/// optional `_` or `-` followed by a letter or digit.
///
/// ```
/// use chimera_auth::{Username, USERNAME_REGEX};
/// assert_eq!(USERNAME_REGEX, "^[A-Za-z](?:[_-]?[A-Za-z0-9])+$");
/// assert!("Magnus_C".parse::<Username>().is_ok());
/// ```
pub const USERNAME_REGEX: &str = "^[A-Za-z](?:[_-]?[A-Za-z0-9])+$";

/// Names nobody may sign up with, compared without regard to case and with
/// `_` and `-` ignored (`Ad-Min` is `admin`). They are the names that claim
/// authority (`admin`, `moderator`, `support`, ...), the placeholder names
/// other systems print (`null`, `undefined`, `anonymous`, `guest`), the
/// words the pages use for sides and opponents (`white`, `black`, `engine`,
/// `stockfish`, `bot`), other chess sites (`lichess`), and the first path
/// segments of the server's routes, so that a profile page at `/@/name` or a
/// later `/name` can never shadow a route. Names starting with `chimera` are
/// refused as well ([`RESERVED_PREFIXES`]): the platform's own accounts,
/// among them the engine levels `chimera-1` to `chimera-8`.
pub const RESERVED_USERNAMES: &[&str] = &[
    // Authority and the platform.
    "admin",
    "administrator",
    "root",
    "system",
    "sysop",
    "moderator",
    "mod",
    "staff",
    "official",
    "support",
    "help",
    "security",
    "abuse",
    "postmaster",
    "webmaster",
    "noreply",
    "contact",
    "info",
    // Placeholders.
    "anonymous",
    "anon",
    "guest",
    "nobody",
    "null",
    "nil",
    "none",
    "undefined",
    "unknown",
    "deleted",
    "ghost",
    "me",
    "you",
    "self",
    // Sides, opponents and other sites.
    "white",
    "black",
    "engine",
    "computer",
    "stockfish",
    "bot",
    "lichess",
    "lila",
    // Routes, present and planned.
    "login",
    "logout",
    "signin",
    "signout",
    "signup",
    "register",
    "account",
    "accounts",
    "password",
    "settings",
    "profile",
    "player",
    "players",
    "user",
    "users",
    "api",
    "www",
    "analysis",
    "assets",
    "docs",
    "favicon",
    "game",
    "games",
    "lab",
    "rules",
    "ws",
    "oauth",
    "token",
    "tokens",
    "tv",
    "static",
];

/// Name beginnings nobody may sign up with (same comparison as
/// [`RESERVED_USERNAMES`]): `chimera` covers the platform's name and its
/// engine accounts `chimera-1` to `chimera-8`.
pub const RESERVED_PREFIXES: &[&str] = &["chimera"];

/// A username that passed the rules: as the person typed it, with its
/// case-blind [`key`](Username::key).
///
/// [`FromStr`] applies the sign-up rules (shape and reserved names);
/// [`Username::parse_existing`] applies the shape only, for names typed at
/// log-in and for the accounts the platform makes itself.
///
/// Two `Username`s compare as typed (`Alice` is not `alice` here); compare
/// their keys to ask whether they name the same account.
///
/// ```
/// use chimera_auth::{Username, UsernameError};
///
/// let name: Username = "Alice_99".parse()?;
/// assert_eq!(name.as_str(), "Alice_99");
/// assert_eq!(name.key(), "alice_99");
///
/// assert_eq!("ADMIN".parse::<Username>(), Err(UsernameError::Reserved));
/// assert_eq!("a".parse::<Username>(), Err(UsernameError::TooShort { len: 1 }));
/// # Ok::<(), UsernameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// The fewest characters a name may have.
    pub const MIN_LEN: usize = 2;
    /// The most characters a name may have.
    pub const MAX_LEN: usize = 20;

    /// A name with the shape rules only, not the reserved list: for a name
    /// typed at log-in (so `Admin` finds the administrator's account) and
    /// for accounts the platform makes itself (`chimera-1` .. `chimera-8`).
    /// Sign-up must use [`FromStr`] instead.
    ///
    /// ```
    /// use chimera_auth::Username;
    /// assert!("chimera-8".parse::<Username>().is_err());
    /// assert_eq!(Username::parse_existing("chimera-8").unwrap().key(), "chimera-8");
    /// ```
    pub fn parse_existing(s: &str) -> Result<Username, UsernameError> {
        check_shape(s)?;
        Ok(Username(s.to_owned()))
    }

    /// The name as the person typed it, for display.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name in lower case: what the store's unique index holds, so that
    /// `Alice` and `alice` cannot both exist, and what a log-in looks up.
    /// The alphabet is ASCII, so this is exact (no Unicode case folding).
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }

    /// Whether this name is reserved ([`RESERVED_USERNAMES`],
    /// [`RESERVED_PREFIXES`]); only [`Username::parse_existing`] can make
    /// one that is.
    pub fn is_reserved(&self) -> bool {
        is_reserved(&self.0)
    }

    /// The name as typed, by value.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl FromStr for Username {
    type Err = UsernameError;

    /// The sign-up rules: the shape, then the reserved names. The input is
    /// taken as it is (no trimming: a space is a bad character).
    fn from_str(s: &str) -> Result<Username, UsernameError> {
        check_shape(s)?;
        if is_reserved(s) {
            return Err(UsernameError::Reserved);
        }
        Ok(Username(s.to_owned()))
    }
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Username {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Why a name was refused. The `Display` text is written for the person
/// choosing the name; positions count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsernameError {
    /// Fewer than [`Username::MIN_LEN`] characters.
    TooShort {
        /// The characters it has.
        len: usize,
    },
    /// More than [`Username::MAX_LEN`] characters.
    TooLong {
        /// The characters it has.
        len: usize,
    },
    /// A character outside `A-Za-z0-9_-`.
    BadCharacter {
        /// The first such character.
        ch: char,
        /// Its position, from 1.
        position: usize,
    },
    /// The first character is not a letter.
    MustStartWithLetter,
    /// The last character is `_` or `-`.
    MustEndWithLetterOrDigit,
    /// Two of `_` and `-` in a row.
    ConsecutiveSeparators {
        /// The position of the second of them, from 1.
        position: usize,
    },
    /// On the reserved list or starting with a reserved prefix.
    Reserved,
}

impl fmt::Display for UsernameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsernameError::TooShort { len } => {
                write!(f, "A username needs at least {} characters; this one has {len}.", Username::MIN_LEN)
            }
            UsernameError::TooLong { len } => {
                write!(f, "A username can have at most {} characters; this one has {len}.", Username::MAX_LEN)
            }
            UsernameError::BadCharacter { ch, position } => write!(
                f,
                "A username can use only the letters A-Z and a-z, the digits 0-9, '_' and '-'; \
                 character {position} ({ch:?}) is not one of them."
            ),
            UsernameError::MustStartWithLetter => f.write_str("A username must start with a letter."),
            UsernameError::MustEndWithLetterOrDigit => f.write_str("A username must end with a letter or a digit."),
            UsernameError::ConsecutiveSeparators { position } => write!(
                f,
                "A username cannot have '_' or '-' twice in a row (characters {} and {position}).",
                position - 1
            ),
            UsernameError::Reserved => f.write_str("This username is reserved; please choose another."),
        }
    }
}

impl std::error::Error for UsernameError {}

fn is_separator(c: char) -> bool {
    c == '_' || c == '-'
}

/// The shape rules, in the order a person can best act on: length, the
/// alphabet, then the arrangement.
fn check_shape(s: &str) -> Result<(), UsernameError> {
    // Counting stops early, so a megabyte of input costs no more than 21
    // characters' worth.
    let len = s.chars().take(Username::MAX_LEN + 1).count();
    if len < Username::MIN_LEN {
        return Err(UsernameError::TooShort { len });
    }
    if len > Username::MAX_LEN {
        return Err(UsernameError::TooLong { len: s.chars().count() });
    }
    if let Some((i, ch)) = s.chars().enumerate().find(|&(_, c)| !(c.is_ascii_alphanumeric() || is_separator(c))) {
        return Err(UsernameError::BadCharacter { ch, position: i + 1 });
    }
    // From here on the name is ASCII, so bytes are characters.
    let b = s.as_bytes();
    if !b[0].is_ascii_alphabetic() {
        return Err(UsernameError::MustStartWithLetter);
    }
    if is_separator(b[b.len() - 1] as char) {
        return Err(UsernameError::MustEndWithLetterOrDigit);
    }
    if let Some(i) = b.windows(2).position(|w| is_separator(w[0] as char) && is_separator(w[1] as char)) {
        return Err(UsernameError::ConsecutiveSeparators { position: i + 2 });
    }
    Ok(())
}

fn is_reserved(s: &str) -> bool {
    let bare: String = s.chars().filter(|&c| !is_separator(c)).map(|c| c.to_ascii_lowercase()).collect();
    RESERVED_USERNAMES.contains(&bare.as_str()) || RESERVED_PREFIXES.iter().any(|p| bare.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(s: &str) -> Result<Username, UsernameError> {
        s.parse()
    }

    #[test]
    fn good_names_keep_their_case_and_key_in_lower_case() {
        for s in ["ab", "Ab", "a1", "Magnus_Carlsen", "x-y_z", "DrNykterstein", "abcdefghij0123456789"] {
            let u = parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(u.as_str(), s);
            assert_eq!(u.to_string(), s);
            assert_eq!(u.key(), s.to_ascii_lowercase());
        }
        assert_eq!(parse("ALICE").unwrap().key(), parse("alice").unwrap().key());
        assert_ne!(parse("ALICE").unwrap(), parse("alice").unwrap());
    }

    #[test]
    fn length_counts_characters_from_2_to_20() {
        assert_eq!(parse(""), Err(UsernameError::TooShort { len: 0 }));
        assert_eq!(parse("a"), Err(UsernameError::TooShort { len: 1 }));
        assert!(parse("ab").is_ok());
        assert!(parse(&format!("a{}", "b".repeat(19))).is_ok());
        assert_eq!(parse(&format!("a{}", "b".repeat(20))), Err(UsernameError::TooLong { len: 21 }));
        // Two characters of two bytes each are two characters, but not ASCII.
        assert_eq!(parse("éé"), Err(UsernameError::BadCharacter { ch: 'é', position: 1 }));
        assert_eq!(parse("é"), Err(UsernameError::TooShort { len: 1 }));
    }

    #[test]
    fn bad_characters_are_named_with_their_position() {
        assert_eq!(parse("ab cd"), Err(UsernameError::BadCharacter { ch: ' ', position: 3 }));
        assert_eq!(parse("bob.smith"), Err(UsernameError::BadCharacter { ch: '.', position: 4 }));
        assert_eq!(parse("Bjørn"), Err(UsernameError::BadCharacter { ch: 'ø', position: 3 }));
        assert_eq!(parse("zero\u{200b}width"), Err(UsernameError::BadCharacter { ch: '\u{200b}', position: 5 }));
        assert_eq!(parse(" alice"), Err(UsernameError::BadCharacter { ch: ' ', position: 1 }));
        let msg = parse("ab cd").unwrap_err().to_string();
        assert!(msg.contains("character 3 (' ')"), "{msg}");
    }

    #[test]
    fn lichess_shape_start_end_and_separators() {
        assert_eq!(parse("1abc"), Err(UsernameError::MustStartWithLetter));
        assert_eq!(parse("12345"), Err(UsernameError::MustStartWithLetter));
        assert_eq!(parse("_abc"), Err(UsernameError::MustStartWithLetter));
        assert_eq!(parse("-abc"), Err(UsernameError::MustStartWithLetter));
        assert_eq!(parse("abc_"), Err(UsernameError::MustEndWithLetterOrDigit));
        assert_eq!(parse("abc-"), Err(UsernameError::MustEndWithLetterOrDigit));
        assert_eq!(parse("a__b"), Err(UsernameError::ConsecutiveSeparators { position: 3 }));
        assert_eq!(parse("ab_-c"), Err(UsernameError::ConsecutiveSeparators { position: 4 }));
        assert!(parse("a_b-c").is_ok());
        assert!(parse("a1").is_ok());
        assert!(parse("abc9").is_ok());
    }

    #[test]
    fn reserved_names_in_any_case_and_with_separators() {
        for s in ["admin", "ADMIN", "Admin", "aDmIn", "ad-min", "Ad_Min", "root", "Stockfish", "WHITE", "black"] {
            assert_eq!(parse(s), Err(UsernameError::Reserved), "{s}");
        }
        for s in ["login", "Logout", "signup", "account", "players", "settings", "api", "www", "me", "You"] {
            assert_eq!(parse(s), Err(UsernameError::Reserved), "{s}");
        }
        for s in ["chimera", "Chimera", "chimera-1", "CHIMERA-8", "chimera_bot", "Chimeras", "chi-mera"] {
            assert_eq!(parse(s), Err(UsernameError::Reserved), "{s}");
        }
        // Every entry is refused as listed and upper-cased.
        for s in RESERVED_USERNAMES {
            assert_eq!(parse(s), Err(UsernameError::Reserved), "{s}");
            assert_eq!(parse(&s.to_ascii_uppercase()), Err(UsernameError::Reserved), "{s}");
        }
        // Containing a reserved word is fine; only equality and the prefix count.
        for s in ["admiral", "rootbeer", "blackbird", "whitehorse", "mychimera", "bottle", "meow"] {
            assert!(parse(s).is_ok(), "{s}");
        }
        let msg = parse("admin").unwrap_err().to_string();
        assert!(msg.contains("reserved"), "{msg}");
    }

    #[test]
    fn reserved_list_is_lower_case_and_each_entry_has_the_shape() {
        for s in RESERVED_USERNAMES.iter().chain(RESERVED_PREFIXES) {
            assert_eq!(*s, s.to_ascii_lowercase());
            assert!(!s.contains(['_', '-']), "{s}: compared without separators, so must have none");
        }
    }

    #[test]
    fn existing_names_skip_the_reserved_list_but_not_the_shape() {
        for n in 1..=8 {
            let bot = Username::parse_existing(&format!("chimera-{n}")).unwrap();
            assert!(bot.is_reserved());
        }
        assert!(Username::parse_existing("Admin").unwrap().is_reserved());
        assert!(!parse("alice").unwrap().is_reserved());
        assert_eq!(Username::parse_existing("a b"), Err(UsernameError::BadCharacter { ch: ' ', position: 2 }));
        assert_eq!(Username::parse_existing("x"), Err(UsernameError::TooShort { len: 1 }));
    }

    #[test]
    fn a_huge_input_is_refused_as_too_long() {
        let s = "a".repeat(1_000_000);
        assert_eq!(parse(&s), Err(UsernameError::TooLong { len: 1_000_000 }));
    }

    #[test]
    fn messages_are_sentences() {
        let errors = [
            UsernameError::TooShort { len: 1 },
            UsernameError::TooLong { len: 21 },
            UsernameError::BadCharacter { ch: '!', position: 2 },
            UsernameError::MustStartWithLetter,
            UsernameError::MustEndWithLetterOrDigit,
            UsernameError::ConsecutiveSeparators { position: 3 },
            UsernameError::Reserved,
        ];
        for e in errors {
            let m = e.to_string();
            assert!(m.starts_with(char::is_uppercase) && m.ends_with('.'), "{m}");
        }
        assert_eq!(
            UsernameError::ConsecutiveSeparators { position: 3 }.to_string(),
            "A username cannot have '_' or '-' twice in a row (characters 2 and 3)."
        );
    }

    fn in_alphabet(c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || c == '-'
    }

    proptest! {
        /// Whatever the sign-up rules accept round-trips through its text,
        /// matches the documented regular expression and length, and is not
        /// reserved.
        #[test]
        fn accepted_names_round_trip_and_match_the_regex(s in "[A-Za-z0-9_-]{0,24}|\\PC{0,24}") {
            let re = regex::Regex::new(USERNAME_REGEX).unwrap();
            if let Ok(u) = parse(&s) {
                prop_assert_eq!(u.as_str(), s.as_str());
                let shown = u.to_string();
                prop_assert_eq!(parse(&shown), Ok(u.clone()));
                prop_assert!(re.is_match(&s), "{:?} accepted but does not match", s);
                prop_assert!((Username::MIN_LEN..=Username::MAX_LEN).contains(&s.chars().count()));
                prop_assert!(!u.is_reserved());
                prop_assert_eq!(u.key(), s.to_ascii_lowercase());
            }
        }

        /// And the other way: every string of the regular expression and
        /// the length that is not reserved is accepted.
        #[test]
        fn names_of_the_regex_are_accepted(s in "[A-Za-z](?:[_-]?[A-Za-z0-9]){1,12}") {
            prop_assume!(s.len() <= Username::MAX_LEN && !is_reserved(&s));
            prop_assert!(parse(&s).is_ok(), "{:?}: {:?}", s, parse(&s));
        }

        /// A name with any character outside `A-Za-z0-9_-` is refused, and
        /// when its length is right the error names that character.
        #[test]
        fn characters_outside_the_alphabet_are_refused(
            head in "[A-Za-z][A-Za-z0-9]{0,8}",
            bad in any::<char>().prop_filter("outside the alphabet", |&c| !in_alphabet(c)),
            tail in "[A-Za-z0-9]{0,8}",
        ) {
            let s = format!("{head}{bad}{tail}");
            prop_assert_eq!(
                parse(&s),
                Err(UsernameError::BadCharacter { ch: bad, position: head.chars().count() + 1 })
            );
            prop_assert!(Username::parse_existing(&s).is_err());
        }

        /// Case never makes two names different accounts.
        #[test]
        fn keys_ignore_case(s in "[A-Za-z](?:[_-]?[A-Za-z0-9]){1,9}") {
            let (upper, lower) = (s.to_ascii_uppercase(), s.to_ascii_lowercase());
            match (Username::parse_existing(&upper), Username::parse_existing(&lower)) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a.key(), b.key()),
                other => prop_assert!(false, "{:?}", other),
            }
        }
    }
}
