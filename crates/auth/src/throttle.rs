//! Log-in throttling: when the next attempt is allowed, given the failures
//! so far, as a pure policy over two integers of state.
//!
//! NIST SP 800-63B §5.2.2 asks verifiers to limit consecutive failed
//! attempts on one account (to at most 100) and lets a success reset the
//! count. OWASP's Authentication Cheat Sheet describes lockout by a
//! threshold of failures, an observation window and a lockout duration,
//! and warns that a lockout lets anyone who knows a name deny its owner
//! access, so a lock here always ends by itself. lichess (lila's
//! `PasswordHasher`) budgets password checks per user (20 in 15 minutes)
//! and per IP address (300 credits in 10 minutes). Chimera counts failures
//! only, so its budgets are smaller:
//!
//! | counter | budget | window | kept |
//! | --- | --- | --- | --- |
//! | per account ([`ThrottlePolicy::ACCOUNT`]) | 5 failures | 15 minutes | in the account's row |
//! | per client address ([`ThrottlePolicy::ADDRESS`]) | 50 failures | 15 minutes | in memory, keyed by [`address_key`] |
//!
//! **The rule.** A counter holds the number of failures in a row and the
//! time of the last one ([`ThrottleState`]). The count is forgotten once
//! the window (15 minutes) has passed since the last failure. While the
//! count is at the budget, every attempt is refused, until the window has
//! passed since the last failure: then the counter is clear and the next
//! attempt (the owner's, say) is checked as usual. So, for an account:
//! **after 5 failed log-ins, each within 15 minutes of the one before,
//! log-ins to that account are refused until 15 minutes after the 5th
//! failure; at that moment they are allowed again.** Refused attempts are
//! not failures: they do not extend the lock (the password is never
//! checked for them).
//!
//! **The guarantee.** Between two clearings (successful log-ins, for an
//! account), within any 15 minutes a counter records at most its budget of
//! failures (a run of failures ends only after a 15-minute gap, and holds
//! at most the budget), and 15 minutes after its last failure any counter
//! allows again. The property tests check both.
//!
//! **Using it.** Before checking a password, [`ThrottlePolicy::check`] both
//! counters (the account's and the address's); if either refuses, answer
//! "too many attempts, try again at ..." without checking the password. On
//! a failure, store [`ThrottlePolicy::record_failure`] in both. On a
//! success, clear the account's counter (`ThrottleState::default()`), not
//! the address's (else one account of an attacker's own would clear the
//! address between guesses at others). Throttle names that have no account
//! the same way (in memory), so that a refusal does not tell whether a name
//! exists. Two log-ins to one account at once can both pass `check`; store
//! the new state with a compare-and-swap (`UPDATE ... WHERE failures = ? AND
//! last_failure = ?`) and count a lost race as refused.
//!
//! Times are Unix seconds (`i64`), from the server's clock; a clock that
//! steps back never shortens a lock.

use std::net::IpAddr;

/// How many failures a counter allows in a row, and how long it remembers
/// them. See the module notes for the rule and the guarantee.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ThrottlePolicy {
    /// Failures allowed before attempts are refused (at least 1).
    pub budget: u32,
    /// Seconds after the last failure when the count is forgotten (and a
    /// lock ends); at least 1. Like the "lockout observation window" of
    /// Windows' account policy, it is the most time between two failures of
    /// one run.
    pub window_secs: i64,
}

/// A counter's state: the failures in a row and the time of the last one.
/// Two integers, for two columns of an account's row (for example
/// `login_failures INTEGER NOT NULL DEFAULT 0` and `login_failed_at BIGINT
/// NOT NULL DEFAULT 0`); the default is a clear counter.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThrottleState {
    /// Failures in a row (none more than the window apart).
    pub failures: u32,
    /// Unix seconds of the last failure; meaningless while `failures` is 0.
    pub last_failure: i64,
}

/// The answer to "may this attempt go ahead?".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Check the password.
    Allow,
    /// Refuse without checking the password.
    Refuse {
        /// Unix seconds from which attempts are allowed again.
        retry_at: i64,
    },
}

impl Verdict {
    /// Whether the attempt may go ahead.
    pub fn is_allowed(self) -> bool {
        self == Verdict::Allow
    }

    /// Seconds to wait from `now` (0 when allowed): for a `Retry-After`
    /// header and the message to the person.
    pub fn retry_after_secs(self, now: i64) -> i64 {
        match self {
            Verdict::Allow => 0,
            Verdict::Refuse { retry_at } => retry_at.saturating_sub(now).max(0),
        }
    }
}

impl ThrottlePolicy {
    /// Per account: 5 failures in a row, then refused until 15 minutes after
    /// the last of them. Far below NIST's cap of 100; about lichess's 20
    /// password checks per 15 minutes per user, counting failures only.
    pub const ACCOUNT: ThrottlePolicy = ThrottlePolicy { budget: 5, window_secs: 15 * 60 };

    /// Per client address (see [`address_key`]): 50 failures in a row, then
    /// refused until 15 minutes after the last of them. Larger than an
    /// account's budget because one address can be many people (a school, a
    /// carrier's NAT); it caps one address guessing at many accounts, each
    /// below its own budget.
    pub const ADDRESS: ThrottlePolicy = ThrottlePolicy { budget: 50, window_secs: 15 * 60 };

    /// The failures that still count at `now`: 0 once the window has passed
    /// since the last failure.
    fn live_failures(&self, state: ThrottleState, now: i64) -> u32 {
        if state.failures == 0 || now.saturating_sub(state.last_failure) >= self.window_secs {
            0
        } else {
            state.failures
        }
    }

    /// Whether an attempt at `now` may go ahead.
    ///
    /// ```
    /// use chimera_auth::{ThrottlePolicy, ThrottleState, Verdict};
    /// let policy = ThrottlePolicy::ACCOUNT;
    /// let mut s = ThrottleState::default();
    /// for t in [0, 60, 120, 180, 240] {
    ///     assert!(policy.check(s, t).is_allowed());
    ///     s = policy.record_failure(s, t);
    /// }
    /// // The 6th attempt is refused until 15 minutes after the 5th failure...
    /// assert_eq!(policy.check(s, 241), Verdict::Refuse { retry_at: 240 + 900 });
    /// assert_eq!(policy.check(s, 1139).retry_after_secs(1139), 1);
    /// // ...and then allowed.
    /// assert_eq!(policy.check(s, 1140), Verdict::Allow);
    /// ```
    pub fn check(&self, state: ThrottleState, now: i64) -> Verdict {
        if self.live_failures(state, now) >= self.budget {
            Verdict::Refuse { retry_at: state.last_failure.saturating_add(self.window_secs) }
        } else {
            Verdict::Allow
        }
    }

    /// The state after a failed attempt at `now`. An attempt that
    /// [`check`](ThrottlePolicy::check) refuses is not a failure: its state
    /// comes back unchanged, so a refused attempt never extends a lock.
    pub fn record_failure(&self, state: ThrottleState, now: i64) -> ThrottleState {
        if !self.check(state, now).is_allowed() {
            return state;
        }
        let live = self.live_failures(state, now);
        // A clock that stepped back keeps the later time, never shortening
        // the window.
        let last_failure = if live == 0 { now } else { now.max(state.last_failure) };
        ThrottleState { failures: live.saturating_add(1), last_failure }
    }

    /// Whether the counter has nothing left to remember at `now` (it reads
    /// as clear): an in-memory table of addresses can drop it.
    pub fn is_idle(&self, state: ThrottleState, now: i64) -> bool {
        self.live_failures(state, now) == 0
    }
}

/// The key of a client address for the per-address counter: an IPv4
/// address as it is (an IPv4-mapped IPv6 address as its IPv4 address), an
/// IPv6 address as its /64 network, the block one subscriber usually has,
/// so that hopping between the 2^64 addresses of one's own network does not
/// give fresh budgets.
///
/// ```
/// use chimera_auth::address_key;
/// use std::net::IpAddr;
/// let ip = |s: &str| s.parse::<IpAddr>().unwrap();
/// assert_eq!(address_key(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
/// assert_eq!(address_key(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
/// assert_eq!(address_key(ip("192.0.2.7")), ip("192.0.2.7"));
/// ```
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ACCOUNT: ThrottlePolicy = ThrottlePolicy::ACCOUNT;
    const WINDOW: i64 = 15 * 60;

    /// Fails `n` times, `gap` seconds apart from `start`; the state and the
    /// time of the last failure.
    fn fail(policy: ThrottlePolicy, n: u32, start: i64, gap: i64) -> (ThrottleState, i64) {
        let mut s = ThrottleState::default();
        let mut t = start;
        for i in 0..n {
            t = start + i64::from(i) * gap;
            assert!(policy.check(s, t).is_allowed(), "failure {} at {t} refused", i + 1);
            s = policy.record_failure(s, t);
        }
        (s, t)
    }

    #[test]
    fn the_documented_numbers() {
        assert_eq!(ThrottlePolicy::ACCOUNT, ThrottlePolicy { budget: 5, window_secs: 900 });
        assert_eq!(ThrottlePolicy::ADDRESS, ThrottlePolicy { budget: 50, window_secs: 900 });
    }

    #[test]
    fn five_failures_lock_the_account_for_15_minutes_after_the_last() {
        let (s, last) = fail(ACCOUNT, 5, 1_000, 30);
        assert_eq!(s, ThrottleState { failures: 5, last_failure: 1_120 });
        assert_eq!(ACCOUNT.check(s, last), Verdict::Refuse { retry_at: last + WINDOW });
        assert_eq!(ACCOUNT.check(s, last + WINDOW - 1), Verdict::Refuse { retry_at: last + WINDOW });
        // The owner, exactly at the documented time: allowed, and a success
        // clears the account.
        assert_eq!(ACCOUNT.check(s, last + WINDOW), Verdict::Allow);
        assert!(ACCOUNT.is_idle(s, last + WINDOW));
    }

    #[test]
    fn four_failures_leave_one_attempt() {
        let (s, last) = fail(ACCOUNT, 4, 0, 60);
        assert!(ACCOUNT.check(s, last + 1).is_allowed());
        let s = ACCOUNT.record_failure(s, last + 1);
        assert!(!ACCOUNT.check(s, last + 2).is_allowed());
    }

    #[test]
    fn refused_attempts_do_not_extend_the_lock() {
        let (mut s, last) = fail(ACCOUNT, 5, 0, 10);
        for t in (last + 1..last + WINDOW).step_by(7) {
            assert!(!ACCOUNT.check(s, t).is_allowed());
            s = ACCOUNT.record_failure(s, t); // a careless caller: no effect
        }
        assert_eq!(s.last_failure, last);
        assert!(ACCOUNT.check(s, last + WINDOW).is_allowed());
    }

    #[test]
    fn failures_far_apart_are_forgotten() {
        // One mistyped password a day never adds up.
        let (s, _) = fail(ACCOUNT, 100, 0, 86_400);
        assert_eq!(s.failures, 1);
        // Nor one every 15 minutes exactly.
        let (s, _) = fail(ACCOUNT, 20, 0, WINDOW);
        assert_eq!(s.failures, 1);
        // But one every 14 minutes is one run.
        let (s, last) = fail(ACCOUNT, 5, 0, 14 * 60);
        assert_eq!(s.failures, 5);
        assert!(!ACCOUNT.check(s, last + 60).is_allowed());
    }

    #[test]
    fn a_success_clears_the_account() {
        let (s, last) = fail(ACCOUNT, 4, 0, 10);
        assert_eq!(s.failures, 4);
        // The owner logs in at last + 1: the server stores a clear counter,
        // and a whole budget of attempts is there again.
        let clear = ThrottleState::default();
        assert!(ACCOUNT.is_idle(clear, last + 1));
        let mut s = clear;
        for t in last + 2..last + 7 {
            assert!(ACCOUNT.check(s, t).is_allowed());
            s = ACCOUNT.record_failure(s, t);
        }
        assert!(!ACCOUNT.check(s, last + 7).is_allowed());
    }

    #[test]
    fn a_clock_stepping_back_never_shortens_a_lock() {
        let (s, last) = fail(ACCOUNT, 5, 10_000, 1);
        assert_eq!(ACCOUNT.check(s, last - 5_000), Verdict::Refuse { retry_at: last + WINDOW });
        let (s, last) = fail(ACCOUNT, 3, 10_000, 1);
        let s = ACCOUNT.record_failure(s, last - 100);
        assert_eq!(s, ThrottleState { failures: 4, last_failure: last });
    }

    #[test]
    fn the_address_budget_is_50() {
        let policy = ThrottlePolicy::ADDRESS;
        let (s, last) = fail(policy, 50, 0, 5);
        assert_eq!(policy.check(s, last + 1), Verdict::Refuse { retry_at: last + WINDOW });
        assert!(policy.check(s, last + WINDOW).is_allowed());
    }

    #[test]
    fn extreme_values_do_not_overflow() {
        let s = ThrottleState { failures: u32::MAX, last_failure: i64::MAX };
        assert_eq!(ACCOUNT.check(s, i64::MIN), Verdict::Refuse { retry_at: i64::MAX });
        assert_eq!(ACCOUNT.check(s, i64::MAX), Verdict::Refuse { retry_at: i64::MAX });
        let s = ThrottleState { failures: u32::MAX, last_failure: i64::MIN };
        assert!(ACCOUNT.check(s, i64::MAX).is_allowed());
        let open = ThrottlePolicy { budget: u32::MAX, window_secs: WINDOW };
        let s = ThrottleState { failures: u32::MAX - 1, last_failure: 0 };
        assert_eq!(open.record_failure(s, 1).failures, u32::MAX);
        assert_eq!(Verdict::Refuse { retry_at: i64::MIN }.retry_after_secs(i64::MAX), 0);
    }

    #[test]
    fn ipv6_addresses_share_their_64_and_ipv4_stands_alone() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(address_key(ip("2001:db8::1")), address_key(ip("2001:db8::ffff:ffff:ffff:ffff")));
        assert_ne!(address_key(ip("2001:db8:0:1::1")), address_key(ip("2001:db8:0:2::1")));
        assert_ne!(address_key(ip("192.0.2.1")), address_key(ip("192.0.2.2")));
        assert_eq!(address_key(ip("::1")), ip("::"));
    }

    /// Runs an attacker who tries at every time of `times` (sorted) and
    /// always fails; the times of the failures recorded.
    fn attack(policy: ThrottlePolicy, times: &[i64]) -> (Vec<i64>, ThrottleState) {
        let mut s = ThrottleState::default();
        let mut recorded = Vec::new();
        for &t in times {
            if policy.check(s, t).is_allowed() {
                s = policy.record_failure(s, t);
                recorded.push(t);
            } else {
                assert_eq!(policy.record_failure(s, t), s, "a refused attempt changed the state");
            }
        }
        (recorded, s)
    }

    fn times() -> impl Strategy<Value = Vec<i64>> {
        // Gaps from 0 to 20 minutes: bursts, steady trickles, and pauses
        // either side of the window.
        (any::<i32>(), prop::collection::vec(0i64..1_200, 1..300)).prop_map(|(start, gaps)| {
            let mut t = i64::from(start);
            gaps.into_iter()
                .map(|g| {
                    t += g;
                    t
                })
                .collect()
        })
    }

    fn policies() -> impl Strategy<Value = ThrottlePolicy> {
        prop_oneof![
            Just(ThrottlePolicy::ACCOUNT),
            Just(ThrottlePolicy::ADDRESS),
            (1u32..10, 1i64..2_000).prop_map(|(budget, window_secs)| ThrottlePolicy { budget, window_secs }),
        ]
    }

    proptest! {
        /// Within any window-long stretch of time, no more failures are
        /// recorded (password checks made) than the budget.
        #[test]
        fn never_more_than_the_budget_within_a_window(policy in policies(), times in times()) {
            let (recorded, _) = attack(policy, &times);
            for (i, &t) in recorded.iter().enumerate() {
                let within = recorded[i..].iter().take_while(|&&u| u < t + policy.window_secs).count();
                prop_assert!(within as u32 <= policy.budget,
                    "{} failures in [{}, {}) with budget {}", within, t, t + policy.window_secs, policy.budget);
            }
        }

        /// Whatever happened before, an attempt one window after the last
        /// failure is allowed, and a refusal never names a later time.
        #[test]
        fn always_allowed_again_one_window_after_the_last_failure(policy in policies(), times in times()) {
            let (recorded, s) = attack(policy, &times);
            let last = *recorded.last().unwrap();
            prop_assert_eq!(s.last_failure, last);
            prop_assert_eq!(policy.check(s, last + policy.window_secs), Verdict::Allow);
            prop_assert!(policy.is_idle(s, last + policy.window_secs));
            let probe = *times.last().unwrap();
            if let Verdict::Refuse { retry_at } = policy.check(s, probe) {
                prop_assert_eq!(retry_at, last + policy.window_secs);
                prop_assert!(retry_at > probe);
            }
        }

        /// The budget is reached: a burst of attempts gets exactly the budget
        /// of password checks.
        #[test]
        fn a_burst_gets_exactly_the_budget(policy in policies(), start in any::<i32>(), n in 0usize..200) {
            let times = vec![i64::from(start); n];
            let (recorded, _) = attack(policy, &times);
            prop_assert_eq!(recorded.len(), n.min(policy.budget as usize));
        }
    }
}
