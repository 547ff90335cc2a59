//! Trust, round three: what an adversarial user tried and the program must
//! now survive. Definition files built to exhaust memory or time, signals
//! during every long command, an endless move line for `play`, and a
//! client naming files on the server (`tests/serve.rs` holds the rest of
//! the explorer's hostile clients).

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::http::{Server, request};
use crate::common::{bitsolve_json, words_and};

const BITSOLVE: &str = env!("CARGO_BIN_EXE_bitsolve");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitsolve-trust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits for `child` at most `limit` (a guard against a hang, not a speed
/// target); kills it and fails past that. Its output is read meanwhile,
/// so that a long report cannot fill the pipe and stall it.
fn wait_within(mut child: Child, limit: Duration, what: &str) -> Output {
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// `bitsolve args` with its address space capped at `cap_mib` MiB (as
/// `ulimit -v` does): a run that asks for more fails instead of taking
/// the machine.
fn bitsolve_capped(args: &[&str], cap_mib: u64) -> Output {
    let cap = format!("ulimit -v {}; exec \"$0\" \"$@\"", cap_mib * 1024);
    let child = Command::new("sh")
        .arg("-c")
        .arg(cap)
        .arg(BITSOLVE)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_within(child, Duration::from_secs(300), &format!("{args:?}"))
}

/// One `bitsolve: error:` line, no panic, no death by signal.
fn assert_one_line_refusal(output: &Output, says: &str, what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{what}: {:?} {stderr}",
        output.status
    );
    assert!(stderr.contains(says), "{what}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.starts_with("bitsolve: error"))
            .count(),
        1,
        "{what}: {stderr}"
    );
}

/// `count` sets of one piece (`S0`, `S1`, ...): their `Set` lines, and
/// their part of a block (each solved, each left alone by a move).
fn one_piece_sets(count: usize) -> (String, String) {
    let sets = (0..count).map(|i| format!("Set S{i} 1 1\n")).collect();
    let parts = (0..count).map(|i| format!("S{i}\n1\n")).collect();
    (sets, parts)
}

/// One set `BIG` of 64 pieces with 64 orientations and `sets` sets of one
/// piece, and `moves` moves each turning BIG's 64 pieces once round with
/// one twist (order 4,096).
fn big_definition(moves: usize, sets: usize) -> String {
    let (set_lines, ones) = one_piece_sets(sets);
    let mut text = format!("Name Big\nSet BIG 64 64\n{set_lines}");
    let identity: Vec<String> = (1..=64).map(|i| i.to_string()).collect();
    let turned: Vec<String> = (1..=64).map(|i| (i % 64 + 1).to_string()).collect();
    let twist: Vec<&str> = (0..64).map(|i| if i == 0 { "1" } else { "0" }).collect();
    text.push_str(&format!("Solved\nBIG\n{}\n{ones}End\n", identity.join(" ")));
    for m in 0..moves {
        text.push_str(&format!(
            "Move M{m}\nBIG\n{}\n{}\n{ones}End\n",
            turned.join(" "),
            twist.join(" ")
        ));
    }
    text
}

/// `sets` sets of two pieces, each with a move of its own swapping them:
/// a folded space of 2^(sets - 1) positions in a file of a few KiB.
fn swaps_definition(sets: usize) -> String {
    let mut text = String::from("Name Swaps\n");
    for i in 0..sets {
        text.push_str(&format!("Set P{i} 2 1\n"));
    }
    text.push_str("Solved\n");
    for i in 0..sets {
        text.push_str(&format!("P{i}\n1 2\n"));
    }
    text.push_str("End\n");
    for m in 0..sets {
        text.push_str(&format!("Move X{m}\n"));
        for i in 0..sets {
            text.push_str(&format!("P{i}\n{}\n", if i == m { "2 1" } else { "1 2" }));
        }
        text.push_str("End\n");
    }
    text
}

/// `sets` one-piece sets beside one set of two pieces and a move that
/// swaps them: a file of many megabytes with a space of two positions.
fn many_sets_definition(sets: usize) -> String {
    let (set_lines, ones) = one_piece_sets(sets);
    let mut text = format!("Name Many\n{set_lines}Set P 2 1\n");
    text.push_str(&format!("Solved\n{ones}P\n1 2\nEnd\n"));
    text.push_str(&format!("Move X\n{ones}P\n2 1\nEnd\n"));
    text
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Before: `big` with 1 move took 1.8 GB, 5 moves 5.4 GB, 12 moves about
/// 20 GB (every power of the order-4,096 move kept for every set);
/// 59 swap sets made `info` take 16.8 GB listing blocks, 62 aborted `info`
/// and `bfs` (SIGABRT), 56 took `bfs` to 1.6 GB before it refused; 100,000
/// sets took 17 s to read (quadratic). All now within 1 GiB of address
/// space, refused in one line or answered.
#[test]
fn hostile_definition_files_are_answered_in_bounded_memory() {
    let dir = scratch("definitions");
    const CAP_MIB: u64 = 1024;
    // Growing in moves (1, 5, 12) and in sets (10 to 8,000).
    for (moves, sets) in [(1, 10), (1, 2000), (5, 2000), (12, 2000), (3, 8000)] {
        let file = write(
            &dir,
            &format!("big-{moves}-{sets}.tws"),
            &big_definition(moves, sets),
        );
        for command in ["info", "bfs"] {
            let output = bitsolve_capped(&[command, "ksolve", "--file", &file], CAP_MIB);
            assert_one_line_refusal(&output, "more than 20! arrangements", &file);
        }
    }
    // A move of order 336 (a 16-cycle of alike pieces with a twist, 7
    // orientations, beside a 3-cycle) over a space small enough to search,
    // beside 20,000 sets: its 335 powers would take 536 MB.
    let (set_lines, ones) = one_piece_sets(20_000);
    let mut wide = format!("Name Wide\nSet R 16 7\nSet Q 3 1\n{set_lines}");
    let alike = vec!["1"; 16].join(" ");
    let ring: Vec<String> = (1..=16).map(|i| (i % 16 + 1).to_string()).collect();
    let mut twist = vec!["0"; 16];
    twist[0] = "1";
    wide.push_str(&format!("Solved\nR\n{alike}\nQ\n1 2 3\n{ones}End\n"));
    wide.push_str(&format!(
        "Move T\nR\n{}\n{}\nQ\n2 3 1\n{ones}End\n",
        ring.join(" "),
        twist.join(" ")
    ));
    let file = write(&dir, "wide.tws", &wide);
    let output = bitsolve_capped(&["info", "ksolve", "--file", &file], CAP_MIB);
    assert_one_line_refusal(&output, "MiB a definition's moves may take", &file);

    // Spaces past what a search lays out are refused by `info` and `bfs`
    // alike, computed, not listed.
    for sets in [52, 59, 62] {
        let file = write(&dir, &format!("swaps-{sets}.tws"), &swaps_definition(sets));
        for command in ["info", "bfs"] {
            let output = bitsolve_capped(&[command, "ksolve", "--file", &file], CAP_MIB);
            assert_one_line_refusal(&output, "blocks a search lays out", &file);
        }
    }
    // 2^40 positions: `info` describes it, `bfs` refuses its 256 GiB table.
    let file = write(&dir, "swaps-40.tws", &swaps_definition(40));
    let output = bitsolve_capped(&["info", "ksolve", "--file", &file, "--json"], CAP_MIB);
    assert!(output.status.success(), "{output:?}");
    let info: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(info["states"], 1u64 << 40);
    assert_eq!(info["blocks"], 512);
    let output = bitsolve_capped(&["bfs", "ksolve", "--file", &file], CAP_MIB);
    assert_one_line_refusal(&output, "of memory is available", &file);

    // A file of 100,000 sets reads, and its two positions are searched.
    let file = write(&dir, "many.tws", &many_sets_definition(100_000));
    let output = bitsolve_capped(&["bfs", "ksolve", "--file", &file, "--json"], CAP_MIB);
    assert!(output.status.success(), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["layers"], serde_json::json!([1, 1]), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ended by `signal` the way a stopped command ends: exit 130 (143 for
/// SIGTERM) after its one line, or death by the signal itself (before the
/// work began, when there was nothing to save).
fn assert_stopped_by(status: ExitStatus, signal: i32, what: &str) {
    let code = 128 + signal;
    assert!(
        status.code() == Some(code) || status.signal() == Some(signal),
        "{what}: {status:?}"
    );
}

/// Starts `args`, sends `signal` after `delay`, and returns how it ended
/// and how long after the signal.
fn signalled(args: &[&str], signal: i32, delay: Duration) -> (Output, Duration) {
    let mut command = Command::new(BITSOLVE);
    // A test run that a shell without job control started in the
    // background inherits SIGINT ignored, and bitsolve rightly keeps a
    // signal the user ignored: the child gets the default actions, as a
    // terminal's user would.
    // SAFETY: signal() is async-signal-safe, as a pre_exec hook needs.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGTERM] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    let child = command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    // SAFETY: signalling our own child, which has not been waited for.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    let sent = Instant::now();
    let output = wait_within(child, Duration::from_secs(120), &format!("{args:?}"));
    (output, sent.elapsed())
}

/// Before: `solve` ran 44 s past a SIGINT and exited 0; a definition of
/// 700,000 sets ran 1,581 s under `timeout 30` (parsing quadratic, deaf
/// to SIGTERM). Every long command now stops within a second.
#[test]
fn every_long_command_stops_on_a_signal() {
    let dir = scratch("signals");
    let store = dir.join("solve").display().to_string();
    let many = write(&dir, "many.tws", &many_sets_definition(300_000));
    let hein = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/positional/hex-hein/hein_02_5x5-13.pg"
    );
    let position = "7,2,3,5,1,8,4,6,9,10,11";
    let solve_stored = words_and(
        "solve pancake --n 11 --position",
        &[position, "--store", &store],
    );
    let runs: Vec<(Vec<&str>, i32, u64)> = vec![
        (vec!["bfs", "pancake", "--n", "11"], libc::SIGINT, 1000),
        (
            vec!["solve", "pancake", "--n", "11", "--position", position],
            libc::SIGINT,
            1000,
        ),
        (solve_stored.clone(), libc::SIGTERM, 1000),
        (vec!["bfs", "ksolve", "--file", &many], libc::SIGINT, 200),
        (vec!["info", "ksolve", "--file", &many], libc::SIGTERM, 200),
        (vec!["qbf", "check", "pg", hein], libc::SIGINT, 1000),
    ];
    for (args, signal, delay) in runs {
        let (output, after) = signalled(&args, signal, Duration::from_millis(delay));
        assert_stopped_by(output.status, signal, &format!("{args:?}"));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        // A second, not the 44 s or 26 min of before (with room for a
        // loaded test machine).
        assert!(
            after < Duration::from_secs(5),
            "{args:?} took {after:?} to stop"
        );
        eprintln!("{args:?}: stopped {after:?} after the signal");
    }
    // The stopped `solve --store` resumes and answers.
    let solved = bitsolve_json(&[&solve_stored[..], &["--json"]].concat());
    assert!(solved["length"].as_u64().unwrap() > 0, "{solved}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Before: `play ... < /dev/zero` held the whole endless line, 10 GB in
/// 10 s.
#[test]
fn play_refuses_an_endless_move_line() {
    let dir = scratch("play");
    let store = dir.display().to_string();
    let solved = Command::new(BITSOLVE)
        .args(["retro", "dodgem", "--n", "3", "--store", &store])
        .output()
        .unwrap();
    assert!(solved.status.success(), "{solved:?}");
    for side in ["blue", "red"] {
        let cap = "ulimit -v 1048576; exec \"$0\" \"$@\"";
        let child = Command::new("sh")
            .arg("-c")
            .arg(cap)
            .arg(BITSOLVE)
            .args(["play", "dodgem", "--n", "3", "--store", &store])
            .args(["--side", side])
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let output = wait_within(child, Duration::from_secs(60), "play < /dev/zero");
        assert_one_line_refusal(&output, "longer than 256 bytes", side);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Percent-encodes every byte but letters and digits.
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Before: `?game=ksolve&file=/etc/shadow` answered a 400 quoting root's
/// line, `file=/proc/self/environ` the server's environment, the errors
/// told whether a path existed, four requests for a FIFO held every
/// worker, and a definition of 2^62 positions aborted the server. Now a
/// request opens only the definitions the server was started with.
#[test]
fn serve_opens_no_file_a_client_names() {
    let dir = scratch("serve");
    let secret = write(&dir, "secret.tws", "SECRET-CANARY-LINE\n");
    let fifo = dir.join("fifo.tws");
    let fifo_path = std::ffi::CString::new(fifo.display().to_string()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo_path.as_ptr(), 0o644) }, 0);
    let fifo = fifo.display().to_string();
    let served = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/ksolve/pocket-cube.tws"
    );
    let served_copy = write(
        &dir,
        "pocket-cube.tws",
        &std::fs::read_to_string(served).unwrap(),
    );
    let mut server = Server::start_with(&[], &["--definition", served]);

    let games = request(server.address, "GET", "/api/games", None).json();
    assert_eq!(games["definitions"], serde_json::json!(["pocket-cube.tws"]));
    let start = request(
        server.address,
        "GET",
        "/api/start?game=ksolve&file=pocket-cube.tws",
        None,
    );
    assert_eq!(start.status, 200, "{}", start.text());
    let position = start.json()["position"].as_str().unwrap().to_string();
    let answer = request(
        server.address,
        "GET",
        &format!(
            "/api/position?game=ksolve&file=pocket-cube.tws&position={}",
            encoded(&position)
        ),
        None,
    );
    assert_eq!(answer.status, 200, "{}", answer.text());

    let missing = dir.join("no-such-file.tws").display().to_string();
    let names = [
        secret.as_str(),
        "/etc/shadow",
        "/etc/passwd",
        "/proc/self/environ",
        missing.as_str(),
        fifo.as_str(),
        served_copy.as_str(),
        "../data/ksolve/pocket-cube.tws",
        "/",
        "",
    ];
    let mut messages = Vec::new();
    for name in names {
        let file = encoded(name);
        for target in [
            format!("/api/start?game=ksolve&file={file}"),
            format!("/api/position?game=ksolve&file={file}&position=x"),
        ] {
            let reply = request(server.address, "GET", &target, None);
            let text = reply.text();
            assert_eq!(reply.status, 400, "{target}: {text}");
            for leak in ["SECRET-CANARY", "root:", "PATH=", "No such file", "denied"] {
                assert!(!text.contains(leak), "{target} leaks {leak}: {text}");
            }
            assert!(
                text.contains(
                    "is not a definition this server serves (it serves: pocket-cube.tws)"
                ),
                "{target}: {text}"
            );
            // The same words whatever the path: nothing tells whether it
            // exists, or what it is.
            messages.push(text.replace(&format!("'{name}'"), "'NAME'"));
        }
    }
    messages.dedup();
    assert_eq!(messages.len(), 1, "{messages:#?}");

    // Many requests naming the FIFO at once hold no worker.
    let asked = Instant::now();
    let threads: Vec<_> = (0..12)
        .map(|_| {
            let (address, fifo) = (server.address, fifo.clone());
            std::thread::spawn(move || {
                request(
                    address,
                    "GET",
                    &format!("/api/start?game=ksolve&file={}", encoded(&fifo)),
                    None,
                )
                .status
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().unwrap(), 400);
    }
    assert!(
        asked.elapsed() < Duration::from_secs(30),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(
        request(server.address, "GET", "/api/games", None).status,
        200
    );
    // Boards stay built-in only.
    let board = request(
        server.address,
        "GET",
        "/api/start?game=peg-solitaire&board=%2Fetc%2Fpasswd",
        None,
    );
    assert_eq!(board.status, 400);
    assert!(!board.text().contains("root:"), "{}", board.text());
    assert!(server.running());
    drop(server);

    // What the server is started with is checked before it listens.
    let huge = write(&dir, "huge.tws", &swaps_definition(62));
    for (flags, says) in [
        (
            vec!["--definition", huge.as_str()],
            "blocks a search lays out",
        ),
        (vec!["--definition", secret.as_str()], "secret.tws:1"),
        (
            vec!["--definition", served, "--definition", served_copy.as_str()],
            "two --definition files are named 'pocket-cube.tws'",
        ),
        (vec!["--definition", missing.as_str()], "--definition"),
    ] {
        let output = Command::new(BITSOLVE)
            .args(["serve", "--port", "0"])
            .args(&flags)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_one_line_refusal(&output, says, &format!("{flags:?}"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lines of `block` (numbered by `{}`) after `head`, up to just under the
/// 16 MiB a definition file may have.
fn filled(head: &str, block: &str) -> String {
    let mut text = head.to_string();
    for i in 0.. {
        let next = block.replace("{}", &i.to_string());
        if text.len() + next.len() > (16 << 20) - 64 {
            break;
        }
        text.push_str(&next);
    }
    text
}

/// Before: 16 MiB of `a` lines took 939 MB before "unsupported keyword"
/// on line 1 (every line split into words first); 16 MiB of `ScrambleAlg`
/// blocks of a puzzle of twelve sets took more than 1 GiB (each kept as a
/// whole position) and aborted; a chain of 20,000 `MoveAlias` links took
/// 61 s, resolved one link a round. Now a file is read line by line and
/// refused at its first bad line, scrambles are bounded as they are read,
/// and a chain resolves in one walk.
#[test]
fn long_definition_files_are_read_line_by_line_in_bounded_memory() {
    let dir = scratch("long-definitions");
    const CAP_MIB: u64 = 1024;
    let junk = write(&dir, "junk.tws", &"a\n".repeat((8 << 20) - 64));
    let output = bitsolve_capped(&["info", "ksolve", "--file", &junk], CAP_MIB);
    assert_one_line_refusal(&output, "junk.tws:1: unsupported keyword 'a'", &junk);

    // A scramble each 22 bytes, each a position of twelve sets.
    let sets: String = (0..12).map(|i| format!("Set P{i} 2 1\n")).collect();
    let swaps: String = (0..12).map(|i| format!("P{i}\n2 1\n")).collect();
    let head = format!("{sets}Solved\nEnd\nMove X\n{swaps}End\n");
    let wide = write(
        &dir,
        "wide.tws",
        &filled(&head, "ScrambleAlg s{}\nX\nEnd\n"),
    );
    let output = bitsolve_capped(&["info", "ksolve", "--file", &wide], CAP_MIB);
    assert_one_line_refusal(
        &output,
        "the scrambles read so far over 12 sets would take more than the 256 MiB a definition's scrambles may take",
        &wide,
    );

    // The pocket cube's 600,000 scrambles are kept and answered.
    let cube =
        std::fs::read_to_string(Path::new(crate::common::ROOT).join("data/ksolve/pocket-cube.tws"))
            .unwrap();
    let text = filled(&cube, "ScrambleAlg s{}\nU R\nEnd\n");
    let last = text.matches("ScrambleAlg").count() - 1;
    let scrambles = write(&dir, "scrambles.tws", &text);
    let position = format!("scramble s{last}");
    let output = bitsolve_capped(
        &[
            "show",
            "ksolve",
            "--file",
            &scrambles,
            "--position",
            &position,
        ],
        CAP_MIB,
    );
    assert!(output.status.success(), "{output:?}");
    let moved = bitsolve_capped(
        &[
            "show",
            "ksolve",
            "--file",
            &scrambles,
            "--position",
            "moves U R",
        ],
        CAP_MIB,
    );
    assert_eq!(output.stdout, moved.stdout);

    // 60,000 links of MoveAlias, each naming the one before, then a move
    // made of the last: one walk (rounds of one link each took minutes).
    let mut chain =
        String::from("Set P 4 1\nSolved\nEnd\nMove M\nP\n2 3 4 1\nEnd\nMoveAlias a0 M\n");
    for i in 1..60_000 {
        chain.push_str(&format!("MoveAlias a{i} a{}\n", i - 1));
    }
    chain.push_str("MoveSequence S a59999 a59999\n");
    let chain = write(&dir, "chain.tws", &chain);
    let output = bitsolve_capped(&["info", "ksolve", "--file", &chain, "--json"], CAP_MIB);
    assert!(output.status.success(), "{output:?}");
    let info: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(info["states"], 24, "{info}");
    std::fs::remove_dir_all(&dir).unwrap();
}
