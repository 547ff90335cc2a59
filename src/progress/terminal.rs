//! Progress on stderr for long runs, and the layer table streamed to stdout
//! as layers complete.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Progress;

/// Runs shorter than this never show a bar.
const QUIET_START: Duration = Duration::from_millis(1500);

/// Where stderr is no terminal (a run in the background, its output in a
/// file), a plain line of progress at most this often instead of the bar;
/// `BITSOLVE_PROGRESS_EVERY` (seconds) sets it.
const PLAIN_EVERY: Duration = Duration::from_secs(60);

fn plain_every() -> Duration {
    std::env::var("BITSOLVE_PROGRESS_EVERY")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        // Beyond what a Duration holds: never.
        .map_or(PLAIN_EVERY, |s| {
            Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
        })
}

/// Formats one row of the layer table (layer or scan index, count).
pub type RowFormat<'a> = Box<dyn Fn(usize, u64) -> String + Send + Sync + 'a>;

/// A [`Progress`] for a terminal: a bar on stderr (a plain line now and then
/// where stderr is no terminal) and, if asked, the layer table on stdout.
pub struct Display<'a> {
    bar: ProgressBar,
    started: Instant,
    shown: AtomicBool,
    /// Lines printed on stdout before the first layer row; held back until
    /// the search has started so a run that fails at once prints only its
    /// error.
    header: Mutex<Option<String>>,
    /// Prints each finished layer as a table row on stdout, if given.
    rows: Option<RowFormat<'a>>,
    /// With stderr no terminal: how often a plain progress line is
    /// printed, and when the last one was.
    plain: Option<(Duration, Mutex<Instant>)>,
}

impl<'a> Display<'a> {
    /// `header` (if any) goes to stdout before the first row; `rows`, if
    /// given, formats a row for every finished layer.
    pub fn new(header: Option<String>, rows: Option<RowFormat<'a>>) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>28} [{bar:30}] {percent:>3}%  {elapsed_precise} (eta {eta})",
            )
            .expect("a valid progress template")
            .progress_chars("=> "),
        );
        Display {
            bar,
            started: Instant::now(),
            shown: AtomicBool::new(false),
            header: Mutex::new(header),
            rows,
            plain: (!std::io::stderr().is_terminal())
                .then(|| (plain_every(), Mutex::new(Instant::now()))),
        }
    }

    /// Without a terminal: "bitsolve: layer 19 sweep: 4096 of 101856
    /// (4%), 12 m 5 s into the run", once `every` has gone by since the
    /// last line.
    fn plain_line(&self) {
        let Some((every, last)) = &self.plain else {
            return;
        };
        let mut last = last.lock().expect("progress lock");
        if last.elapsed() < *every {
            return;
        }
        *last = Instant::now();
        let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let percent = (100 * done).checked_div(total).unwrap_or(0);
        let elapsed = self.started.elapsed().as_secs();
        eprintln!(
            "bitsolve: {}: {done} of {total} ({percent}%), {} m {} s into the run",
            self.bar.message(),
            elapsed / 60,
            elapsed % 60
        );
    }

    /// Prints the held-back header, once.
    pub fn print_header(&self) {
        if let Some(header) = self.header.lock().expect("header lock").take() {
            self.bar.suspend(|| println!("{header}"));
        }
    }

    fn reveal_if_slow(&self) {
        if !self.shown.load(Ordering::Relaxed) && self.started.elapsed() >= QUIET_START {
            self.shown.store(true, Ordering::Relaxed);
            // Draws only when stderr is a terminal.
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Runs `print` with the progress bar out of the way.
    pub fn suspend(&self, print: impl FnOnce()) {
        self.bar.suspend(print);
    }

    /// Removes the bar from the terminal, at the end of a run.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Display<'_> {
    fn begin_pass(&self, label: &str, units: u64) {
        self.print_header();
        self.bar.set_length(units);
        self.bar.set_position(0);
        self.bar.set_message(label.to_string());
        self.reveal_if_slow();
        self.plain_line();
    }

    /// Like a pass, but the held-back header stays back: the run may still
    /// fail before its search starts.
    fn begin_setup(&self, label: &str, units: u64) {
        self.bar.set_length(units);
        self.bar.set_position(0);
        self.bar.set_message(label.to_string());
        self.reveal_if_slow();
    }

    fn advance(&self, units: u64) {
        self.bar.inc(units);
        self.reveal_if_slow();
        self.plain_line();
    }

    fn layer_done(&self, layer: usize, states: u64) {
        self.print_header();
        if let Some(row) = &self.rows {
            self.bar.suspend(|| println!("{}", row(layer, states)));
        }
    }

    fn scan_done(&self, scan: usize, reached: u64) {
        self.layer_done(scan, reached);
    }

    fn note(&self, message: &str) {
        self.bar.suspend(|| eprintln!("bitsolve: {message}"));
    }
}
