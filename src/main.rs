fn main() -> std::process::ExitCode {
    // Die quietly on a closed pipe (`bitsolve ... | head`) as other command
    // line tools do, instead of panicking on the next println.
    // SAFETY: restoring the default action of a signal at start-up, before
    // any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    bitsolve::cli::main()
}
