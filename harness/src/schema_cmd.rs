//! `penumbra schema`: the JSON Schema of what penumbra writes, generated from the types that
//! write and read it (so it cannot drift from them): the run summary (`--json`, `run.json`),
//! a test record (a `tests.jsonl` line), a replayed test and `report.json`, a batch row
//! (`results.csv`, `results.json`), job record and SLURM submission, and the replay classes.
//!
//! Besides the definitions (`$defs`), the document lists what scripts need without walking
//! them: `classes` (each with its meaning, whether it is an observable difference and whether
//! it is a bug candidate), `batch_columns` in `results.csv`'s order and `volatile_columns`
//! (those that vary from run to run).

use crate::batch::slurm::Submitted;
use crate::batch::store::JobRecord;
use crate::batch::table::{BatchRow, VOLATILE_COLUMNS};
use crate::replay::classify::{Class, Judgement};
use crate::replay::record::{ReplayReport, ReplayedRecord};
use crate::run_info::RunInfo;
use anyhow::Result;
use penumbra_engine::output::testgen::SidecarLine;
use penumbra_engine::RunSummary;
use serde_json::{json, Value};
use std::io::Write;
use std::process::ExitCode;

/// The schema document.
pub fn schema() -> Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let outputs = json!({
        "summary (run/shadow --json; run.json's summary)": generator.subschema_for::<RunSummary>(),
        "tests.jsonl line": generator.subschema_for::<SidecarLine>(),
        "run.json": generator.subschema_for::<RunInfo>(),
        "replayed test (replay --json items, shadow --replay --json tests)": generator.subschema_for::<ReplayedRecord>(),
        "report.json": generator.subschema_for::<ReplayReport>(),
        "results.csv / results.json row": generator.subschema_for::<BatchRow>(),
        "jobs/ID.json": generator.subschema_for::<JobRecord>(),
        "slurm/submissions.jsonl line (batch --slurm)": generator.subschema_for::<Submitted>(),
        "class": generator.subschema_for::<Class>(),
    });
    let classes: Vec<Value> = Class::ALL
        .iter()
        .map(|&c| {
            json!({
                "name": c.as_str(),
                "column": crate::batch::table::ClassCounts::column(c),
                "meaning": c.meaning(true),
                "observable": c.observable(),
                "bug_candidate": c.bug_candidate(),
            })
        })
        .collect();
    let judgements: Vec<Value> =
        Judgement::ALL.iter().map(|&j| json!({"name": j, "meaning": j.meaning(), "explains": j.explains()})).collect();
    let columns = BatchRow::columns();
    let volatile = &columns[columns.len() - VOLATILE_COLUMNS..];
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "penumbra's JSON outputs",
        "description": "Each output's schema is named in `outputs`; `classes`, `judgements`, `batch_columns` and `volatile_columns` list the replay classes (most severe first), the fixes' judgements of a test (`explains`: an output difference it explains is expected, an error in new only it explains is not the one the fix removes) and the columns of results.csv in order.",
        "outputs": outputs,
        "classes": classes,
        "judgements": judgements,
        "batch_columns": columns,
        "volatile_columns": volatile,
        "$defs": generator.take_definitions(true),
    })
}

pub fn run() -> Result<ExitCode> {
    let text = serde_json::to_string_pretty(&schema())?;
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::classify::Class;
    use clap::Parser;
    use serde::de::DeserializeOwned;
    use std::path::Path;

    /// `text` read into `T` and written back gives the same JSON: the type holds all of it.
    fn round_trip<T: DeserializeOwned + serde::Serialize>(text: &str, what: &str) -> T {
        let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"));
        let typed: T = serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{what}: {e}: {value}"));
        assert_eq!(serde_json::to_value(&typed).unwrap(), value, "{what}");
        typed
    }

    #[test]
    fn the_schema_lists_every_class_and_column() {
        let doc = schema();
        let names: Vec<&str> = Class::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            names,
            [
                "unconfirmed",
                "regression",
                "output-diff",
                "both-error",
                "fix",
                "expected",
                "stderr-diff",
                "silent",
                "replay-failed"
            ]
        );
        let listed: Vec<&str> =
            doc["classes"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        assert_eq!(listed, names);
        assert_eq!(doc["$defs"]["Class"]["enum"], json!(names));
        let columns: Vec<&str> = doc["batch_columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        let classes_at = columns.iter().position(|c| *c == "class_unconfirmed").unwrap();
        let class_columns: Vec<String> = names.iter().map(|n| format!("class_{n}")).collect();
        assert_eq!(columns[classes_at..classes_at + names.len()], class_columns);
        assert_eq!(columns[..5], ["subject", "mode", "config", "outcome", "diff_paths"]);
        assert_eq!(
            doc["volatile_columns"],
            json!(["first_difference_s", "solver_time_s", "engine_s", "wall_s", "peak_rss_mb"])
        );
        // Every column is a property of the row's schema (the class columns flattened into it),
        // and nothing else is.
        let row = &doc["$defs"]["BatchRow"];
        let properties: Vec<&str> = row["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        let mut sorted = columns.clone();
        sorted.sort_unstable();
        assert_eq!(properties, sorted);
        for output in ["run.json", "tests.jsonl line", "report.json", "jobs/ID.json"] {
            assert!(doc["outputs"][output]["$ref"].as_str().is_some_and(|r| r.starts_with("#/$defs/")), "{output}");
        }
    }

    /// A small shadow run with replay, in this process: what it wrote reads into the types and
    /// writes back the same JSON.
    #[test]
    fn what_a_run_writes_reads_back_through_the_types() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/threshold.c");
        let cli = crate::cli::Cli::try_parse_from([
            "penumbra",
            "shadow",
            source.to_str().unwrap(),
            "--output-dir",
            out.to_str().unwrap(),
            "--replay",
            "--json",
            "--max-time",
            "60",
            "--max-paths",
            "100",
        ])
        .unwrap();
        let crate::cli::Command::Shadow(args) = cli.command else { panic!("a shadow command") };
        crate::shadow_cmd::run(&args, Vec::new()).unwrap();

        let info: RunInfo = round_trip(&std::fs::read_to_string(out.join("run.json")).unwrap(), "run.json");
        let summary: RunSummary = serde_json::from_value(info.summary.clone().unwrap()).unwrap();
        assert_eq!((summary.diff_paths, summary.tests_count, summary.mode.as_deref()), (1, 1, Some("complete")));

        let lines = std::fs::read_to_string(out.join("tests.jsonl")).unwrap();
        let tests: Vec<SidecarLine> = lines.lines().map(|l| round_trip(l, "a tests.jsonl line")).collect();
        assert_eq!(tests.len(), 1);
        assert_eq!((tests[0].record.kind.as_str(), tests[0].record.line), ("divergence", Some(8)));

        let report: ReplayReport =
            round_trip(&std::fs::read_to_string(out.join("report.json")).unwrap(), "report.json");
        let counts: Vec<(Class, u64)> = report.classes.iter().map(|(c, n)| (*c, *n)).collect();
        let expected: Vec<(Class, u64)> = Class::ALL.iter().map(|&c| (c, u64::from(c == Class::OutputDiff))).collect();
        assert_eq!(counts, expected);
        assert_eq!(report.tests.len(), 1);
        assert_eq!(report.tests[0].verdict.class, Class::OutputDiff);
        assert_eq!(report.tests[0].record, tests[0].record.clone().into_owned());
    }
}
