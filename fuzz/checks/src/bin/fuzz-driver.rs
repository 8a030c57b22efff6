//! fuzz-driver: runs one fuzz target on stable Rust, without libFuzzer, on pseudo-random
//! inputs from a seed, for a number of seconds or iterations, and reports executions per
//! second and the iterations run without a finding. On a finding it saves the input, prints
//! the description and exits with status 1; `--replay FILE` runs one saved input (or a
//! libFuzzer crash file: the inputs are the same bytes).
//!
//! ```text
//! fuzz-driver --list
//! fuzz-driver TARGET [--seconds N | --iterations N] [--random-seed S] [--start I] [--out DIR]
//! fuzz-driver TARGET --replay FILE
//! ```

use anyhow::{bail, Context, Result};
use penumbra_fuzz_checks::targets::{nth_input, run_input, target, TARGETS};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

struct Options {
    target: String,
    seconds: Option<u64>,
    iterations: Option<u64>,
    seed: u64,
    start: u64,
    out: PathBuf,
    replay: Option<PathBuf>,
}

fn usage() -> String {
    let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    format!(
        "usage: fuzz-driver TARGET [--seconds N | --iterations N] [--random-seed S] [--start I] [--out DIR]\n       \
         fuzz-driver TARGET --replay FILE\n       fuzz-driver --list\ntargets: {}",
        names.join(", ")
    )
}

fn parse() -> Result<Option<Options>> {
    let mut args = std::env::args().skip(1);
    let mut o = Options {
        target: String::new(),
        seconds: None,
        iterations: None,
        seed: 1,
        start: 0,
        out: PathBuf::from("fuzz-findings"),
        replay: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value\n{}", usage()));
        match arg.as_str() {
            "--list" => {
                for t in TARGETS {
                    println!("{:<13} {}", t.name, t.about);
                }
                return Ok(None);
            }
            "-h" | "--help" => {
                println!("{}", usage());
                return Ok(None);
            }
            "--seconds" => o.seconds = Some(value("--seconds")?.parse().context("--seconds")?),
            "--iterations" => o.iterations = Some(value("--iterations")?.parse().context("--iterations")?),
            "--random-seed" => o.seed = value("--random-seed")?.parse().context("--random-seed")?,
            "--start" => o.start = value("--start")?.parse().context("--start")?,
            "--out" => o.out = value("--out")?.into(),
            "--replay" => o.replay = Some(value("--replay")?.into()),
            name if !name.starts_with('-') && o.target.is_empty() => o.target = name.to_string(),
            other => bail!("unexpected argument {other:?}\n{}", usage()),
        }
    }
    if o.target.is_empty() {
        bail!("no target given\n{}", usage());
    }
    if o.replay.is_some() && (o.seconds.is_some() || o.iterations.is_some()) {
        bail!("--replay runs one saved input: it takes no --seconds or --iterations\n{}", usage());
    }
    Ok(Some(o))
}

fn main() -> Result<()> {
    let Some(o) = parse()? else { return Ok(()) };
    let Some(t) = target(&o.target) else { bail!("no target {:?}\n{}", o.target, usage()) };
    if let Some(file) = &o.replay {
        let data = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        return match run_input(t, &data) {
            Ok(class) => {
                println!("{}: {} bytes pass ({class})", t.name, data.len());
                Ok(())
            }
            Err(finding) => {
                println!("{}: FINDING on {}:\n{finding}", t.name, file.display());
                std::process::exit(1);
            }
        };
    }
    // Without a limit, one minute.
    let deadline = match (o.seconds, o.iterations) {
        (None, None) => Some(Duration::from_secs(60)),
        (s, _) => s.map(Duration::from_secs),
    };
    let started = Instant::now();
    let mut last_report = started;
    let mut classes: BTreeMap<&str, u64> = BTreeMap::new();
    let mut done = 0u64;
    println!("{}: {} (seed {}, from iteration {})", t.name, t.about, o.seed, o.start);
    loop {
        if o.iterations.is_some_and(|n| done >= n) || deadline.is_some_and(|d| started.elapsed() >= d) {
            break;
        }
        let Some(iteration) = o.start.checked_add(done) else { break };
        let data = nth_input(t, o.seed, iteration);
        match run_input(t, &data) {
            Ok(class) => *classes.entry(class).or_default() += 1,
            Err(finding) => {
                std::fs::create_dir_all(&o.out).with_context(|| format!("cannot create {}", o.out.display()))?;
                let file = o.out.join(format!("{}-seed{}-iter{iteration}.bin", t.name, o.seed));
                std::fs::write(&file, &data).with_context(|| format!("cannot write {}", file.display()))?;
                println!(
                    "{}: FINDING at iteration {iteration} (after {done} without one), input saved to {}:\n{finding}",
                    t.name,
                    file.display()
                );
                println!("rerun: fuzz-driver {} --replay {}", t.name, file.display());
                std::process::exit(1);
            }
        }
        done += 1;
        if last_report.elapsed() >= Duration::from_secs(30) {
            last_report = Instant::now();
            report(t.name, done, started.elapsed(), &classes, false);
        }
    }
    report(t.name, done, started.elapsed(), &classes, true);
    Ok(())
}

fn report(name: &str, done: u64, elapsed: Duration, classes: &BTreeMap<&str, u64>, last: bool) {
    let secs = elapsed.as_secs_f64();
    let rate = done as f64 / secs.max(1e-9);
    let what = if last { "done" } else { "progress" };
    println!(
        "{name}: {what}: {done} iterations in {secs:.1} s, {rate:.1} execs/s, no finding; inputs by class: {classes:?}"
    );
}
