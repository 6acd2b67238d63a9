//! Running the built binary, killed after [`KILLED`].

use crate::prelude::*;

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_backoff-lab");

/// A run slower than this is a finding: the limits refuse big work before it starts.
pub(crate) const SLOW: Duration = Duration::from_secs(2);
/// A run still going after this is killed, and the case fails.
pub(crate) const KILLED: Duration = Duration::from_secs(30);

pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) took: Duration,
}

/// Runs the binary with `args`, killing it after [`KILLED`].
pub(crate) fn run(args: &[OsString]) -> Result<Run, TestCaseError> {
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| TestCaseError::fail(format!("spawn: {e}")))?;
    fn read_all(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    }
    let out = read_all(child.stdout.take().expect("piped"));
    let err = read_all(child.stderr.take().expect("piped"));
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| TestCaseError::fail(e.to_string()))?
        {
            break status;
        }
        if start.elapsed() > KILLED {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TestCaseError::fail(format!(
                "{args:?} still running after {KILLED:?}: killed"
            )));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = start.elapsed();
    Ok(Run {
        code: {
            use std::os::unix::process::ExitStatusExt;
            if let Some(signal) = status.signal() {
                return Err(TestCaseError::fail(format!(
                    "{args:?} killed by signal {signal}"
                )));
            }
            status.code()
        },
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        took,
    })
}
