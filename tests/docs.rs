//! The commands the README and the manual (`docs/`) quote are today's
//! commands: every `bitsolve …` line of a fenced `sh` block is parsed by
//! the command line's own parser, and the blocks marked `sh checked`
//! (cheap commands that need nothing an earlier command made) are run and
//! must succeed.

use std::path::{Path, PathBuf};
use std::process::Command;

use bitsolve_cli::Cli;
use clap::Parser;

/// A fenced block of shell commands in a Markdown file.
struct Block {
    file: PathBuf,
    /// The line of its opening fence, from 1.
    line: usize,
    checked: bool,
    commands: Vec<String>,
}

/// The Markdown files of the manual and the README.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    let mut found = vec![PathBuf::from("README.md")];
    walk(Path::new("docs"), &mut found);
    found.sort();
    found
}

/// The `sh` blocks of `file` (info string `sh`, or `sh checked`).
fn shell_blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut fenced = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            if fenced {
                fenced = false;
                blocks.extend(open.take());
                continue;
            }
            fenced = true;
            let words: Vec<&str> = info.split_whitespace().collect();
            if words.first() == Some(&"sh") {
                open = Some(Block {
                    file: file.to_path_buf(),
                    line: index + 1,
                    checked: words.contains(&"checked"),
                    commands: Vec::new(),
                });
            }
            continue;
        }
        if let Some(block) = &mut open {
            let command = trimmed.trim_end();
            if !command.is_empty() && !command.starts_with('#') {
                block.commands.push(command.to_string());
            }
        }
    }
    assert!(!fenced, "{}: a fence is left open", file.display());
    blocks
}

/// Words of a shell command line, quotes removed, up to the first pipe,
/// redirection or command separator outside quotes.
fn words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in command.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    in_word = true;
                }
                '|' | '>' | '<' | ';' | '&' => break,
                c if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                c => {
                    word.push(c);
                    in_word = true;
                }
            },
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The arguments a command line gives `bitsolve` (after `bitsolve`, a path
/// ending in `/bitsolve`, or `cargo run … --`), if it runs it: the first
/// of its `&&`-joined commands that does (`cargo install … && bitsolve …`).
fn bitsolve_arguments(command: &str) -> Option<Vec<String>> {
    command.split("&&").find_map(arguments_of_one)
}

/// As [`bitsolve_arguments`], for a command without `&&`.
fn arguments_of_one(command: &str) -> Option<Vec<String>> {
    let words = words(command);
    if words.first().is_some_and(|w| w == "cargo") {
        if words.get(1).is_some_and(|w| w == "run") {
            let dash = words.iter().position(|w| w == "--")?;
            return Some(words[dash + 1..].to_vec());
        }
        return None;
    }
    let at = words
        .iter()
        .position(|w| w == "bitsolve" || w.ends_with("/bitsolve"))?;
    Some(words[at + 1..].to_vec())
}

#[test]
fn every_quoted_command_parses_and_the_cheap_ones_run() {
    let mut parsed = 0;
    let mut run = 0;
    let mut failures = Vec::new();
    for file in markdown_files() {
        for block in shell_blocks(&file) {
            for command in &block.commands {
                let Some(arguments) = bitsolve_arguments(command) else {
                    continue;
                };
                let place = format!("{}:{}", block.file.display(), block.line);
                let mut argv = vec!["bitsolve".to_string()];
                argv.extend(arguments.iter().cloned());
                if let Err(error) = Cli::try_parse_from(&argv) {
                    let first = error.to_string();
                    let first = first.lines().next().unwrap_or_default().to_string();
                    failures.push(format!("{place}: `{command}` does not parse: {first}"));
                    continue;
                }
                parsed += 1;
                if !block.checked {
                    continue;
                }
                let output = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
                    .args(&arguments)
                    .output()
                    .expect("run bitsolve");
                run += 1;
                if !output.status.success() {
                    failures.push(format!(
                        "{place}: `{command}` failed: {}",
                        String::from_utf8_lossy(&output.stderr).trim()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The README alone quotes more than this; a parser that found nothing
    // would pass the loop above vacuously.
    assert!(parsed >= 10, "only {parsed} commands found");
    println!("{parsed} commands parse, {run} run");
}

#[test]
fn command_lines_split_as_a_shell_splits_them() {
    assert_eq!(
        bitsolve_arguments("bitsolve show pancake --n 4 --position '2 1 3 4' | head"),
        Some(
            ["show", "pancake", "--n", "4", "--position", "2 1 3 4"]
                .map(String::from)
                .to_vec()
        )
    );
    assert_eq!(
        bitsolve_arguments("cargo run --release -- bfs pancake --n 11"),
        Some(["bfs", "pancake", "--n", "11"].map(String::from).to_vec())
    );
    assert_eq!(
        bitsolve_arguments("mpirun -n 4 target/release/bitsolve bfs pancake --n 9 > out.txt"),
        Some(["bfs", "pancake", "--n", "9"].map(String::from).to_vec())
    );
    assert_eq!(
        bitsolve_arguments("cargo install --locked --path cli && bitsolve bfs pancake --n 11"),
        Some(["bfs", "pancake", "--n", "11"].map(String::from).to_vec())
    );
    assert_eq!(bitsolve_arguments("cargo test --release"), None);
    assert_eq!(bitsolve_arguments("./scripts/test.sh"), None);
}

/// The worked example of `docs/adding-a-game.md` is the game's whole
/// file: the code shown is the code that compiles and that `tests/kit.rs`
/// checks against the published values.
#[test]
fn the_worked_example_is_the_game_file_itself() {
    let guide = std::fs::read_to_string("docs/adding-a-game.md").unwrap();
    let start = guide.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let end = start + guide[start..].find("\n```\n").expect("the block's end");
    let file = std::fs::read_to_string("src/games/mu_torere.rs").unwrap();
    assert_eq!(
        &guide[start..end],
        file.trim_end(),
        "docs/adding-a-game.md shows another src/games/mu_torere.rs"
    );
}

/// The guide (the README and `docs/` but for the performance figures and
/// their log) says what is, not how it came to be: a commit, an issue or
/// a working session ("sitting") belongs to `docs/performance-log.md` or
/// the changelog, and the guide links there.
#[test]
fn the_guide_names_no_commit_issue_or_sitting() {
    /// What in `line` names a commit (a word of 7 to 12 lowercase hex
    /// digits, with a digit and a letter), an issue ("issue 55",
    /// "issue #55") or a sitting.
    fn history_in(line: &str) -> Vec<String> {
        let mut found = Vec::new();
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            let hex = (7..=12).contains(&word.len())
                && word
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                && word.bytes().any(|b| b.is_ascii_digit())
                && word.bytes().any(|b| b.is_ascii_alphabetic());
            if hex {
                found.push(format!("a commit (`{word}`)"));
            }
            let lower = word.to_ascii_lowercase();
            if lower == "sitting" || lower == "sittings" {
                found.push(format!("a sitting (`{word}`)"));
            }
        }
        let lower = line.to_ascii_lowercase();
        let mut rest = lower.as_str();
        while let Some(at) = rest.find("issue") {
            let starts_word = !rest[..at].ends_with(|c: char| c.is_ascii_alphanumeric());
            let after = &rest[at + "issue".len()..];
            let after = after.strip_prefix('s').unwrap_or(after);
            let number = after.trim_start().trim_start_matches('#');
            if starts_word && number.starts_with(|c: char| c.is_ascii_digit()) {
                found.push("an issue number".to_string());
            }
            rest = &rest[at + "issue".len()..];
        }
        found
    }

    let history = [
        Path::new("docs/performance.md"),
        Path::new("docs/performance-log.md"),
    ];
    let files: Vec<PathBuf> = markdown_files()
        .into_iter()
        .filter(|file| !history.contains(&file.as_path()))
        .collect();
    assert!(
        files
            .iter()
            .any(|file| file.as_path() == Path::new("docs/guide/morris.md")),
        "the guide's chapters were not found"
    );
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (index, line) in text.lines().enumerate() {
            for found in history_in(line) {
                failures.push(format!("{}:{}: {found}", file.display(), index + 1));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "history in the guide (move it to docs/performance-log.md and link there):\n{}",
        failures.join("\n")
    );
    assert_eq!(
        history_in("the build of 1936e4c, issue #55, one sitting").len(),
        3
    );
    assert!(history_in("Pancake 12 in 42.5 s; the tissue 5; 1234567; deadbeef").is_empty());
}
