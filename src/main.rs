fn main() -> std::process::ExitCode {
    bitsolve::cli::main()
}
