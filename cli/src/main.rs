fn main() -> std::process::ExitCode {
    // SAFETY: setting the action of two signals at start-up, before any
    // other thread exists.
    unsafe {
        // Die quietly on a closed pipe (`bitsolve ... | head`) as other
        // command line tools do, instead of panicking on the next println.
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        // A write past the file size limit (`ulimit -f`) then fails with
        // EFBIG, which becomes a one-line error and removes the temporary
        // file, instead of a silent death by SIGXFSZ that leaves it behind.
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    bitsolve_cli::main()
}
