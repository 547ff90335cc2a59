//! The fuzzing harness every fuzz test runs through: proptest strategies
//! drawn from a seed, each group bounded by a case count and by time.
//!
//! - The suite's own run (`cargo test`) is repeatable: a fixed seed and the
//!   group's case count, so a failure in CI is a failure on every machine.
//! - A longer run keeps looking with other inputs: `BITSOLVE_FUZZ_SEED`
//!   (or proptest's own `PROPTEST_RNG_SEED`) picks the seed and
//!   `BITSOLVE_FUZZ_SECONDS` gives every group that many seconds, however
//!   many cases that takes (`scripts/fuzz.sh` does both; CI runs it with a
//!   seed from the commit, so every commit tries inputs none tried before).
//! - A failure names the group, the seed and the shrunk input; the input is
//!   then kept as an explicit regression case beside the group.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};

/// The seed of the suite's own run.
const DEFAULT_SEED: u64 = 17;

/// Inputs tried by every group of this process so far.
static TRIED: AtomicUsize = AtomicUsize::new(0);

/// A refusal the command line can print as its one line: not empty, no
/// line break or other control character.
pub fn one_line(error: &bitsolve::Error) -> Result<(), TestCaseError> {
    let message = error.to_string();
    if message.trim().is_empty() {
        return Err(TestCaseError::fail(format!("an empty message: {error:?}")));
    }
    if message.contains(char::is_control) {
        return Err(TestCaseError::fail(format!(
            "a message with line breaks or control characters: {message:?}"
        )));
    }
    Ok(())
}

/// The seed this process fuzzes with.
pub fn seed() -> u64 {
    ["BITSOLVE_FUZZ_SEED", "PROPTEST_RNG_SEED"]
        .iter()
        .find_map(|name| std::env::var(name).ok())
        .map(|text| {
            text.trim()
                .parse()
                .unwrap_or_else(|_| panic!("the fuzzing seed {text:?} is not a number"))
        })
        .unwrap_or(DEFAULT_SEED)
}

/// Seconds each group runs for, when a longer run asks for a time budget.
pub fn seconds() -> Option<f64> {
    let text = std::env::var("BITSOLVE_FUZZ_SECONDS").ok()?;
    let seconds: f64 = text
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("BITSOLVE_FUZZ_SECONDS={text:?} is not a number"));
    assert!(
        seconds.is_finite() && seconds > 0.0,
        "BITSOLVE_FUZZ_SECONDS must be positive"
    );
    Some(seconds)
}

/// Runs `test` on inputs drawn from `strategy`: `cases` of them, or as many
/// as `BITSOLVE_FUZZ_SECONDS` allows. A failing input is shrunk (within
/// bounds: a slow case must not be retried for hours) and reported with
/// the seed that finds it again.
pub fn fuzz<S: Strategy>(
    group: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    fuzz_share(group, cases, 1, strategy, test)
}

/// [`fuzz`] for one of `groups` groups that share one test's time budget
/// (a test that fuzzes every game in turn).
pub fn fuzz_share<S: Strategy>(
    group: &str,
    cases: u32,
    groups: usize,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let seed = seed();
    let budget = seconds().map(|s| s / groups.max(1) as f64);
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 256,
        max_shrink_time: 60_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let started = Instant::now();
    let deadline = budget.map(|s| started + Duration::from_secs_f64(s));
    let mut tried = 0usize;
    loop {
        let more = match deadline {
            Some(deadline) => Instant::now() < deadline,
            None => tried < cases as usize,
        };
        if !more {
            break;
        }
        let tree = strategy
            .new_tree(&mut runner)
            .unwrap_or_else(|why| panic!("{group}: no input could be drawn: {why}"));
        tried += 1;
        match runner.run_one(tree, &test) {
            Ok(_) => {}
            Err(TestError::Fail(why, input)) => panic!(
                "{group}: input {tried} of seed {seed} fails: {why}\n\
                 shrunk input: {input:#?}\n\
                 (run again with BITSOLVE_FUZZ_SEED={seed}{})",
                budget.map_or(String::new(), |s| format!(" BITSOLVE_FUZZ_SECONDS={s}"))
            ),
            Err(TestError::Abort(why)) => panic!("{group}: aborted: {why}"),
        }
    }
    let total = TRIED.fetch_add(tried, Ordering::SeqCst) + tried;
    eprintln!(
        "fuzz: {group}: {tried} inputs in {:.1} s (seed {seed}; {total} inputs so far in this run)",
        started.elapsed().as_secs_f64()
    );
}
