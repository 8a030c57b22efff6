//! `penumbra schema`: the JSON Schema of what penumbra writes, generated from the types that
//! write and read it (so it cannot drift from them): the run summary (`--json`, `run.json`),
//! a test record (a `tests.jsonl` line), a replayed test and `report.json`, a batch row
//! (`results.csv`, `results.json`) and job record, and the replay classes.
//!
//! Besides the definitions (`$defs`), the document lists what scripts need without walking
//! them: `classes` (each with its meaning, whether it is an observable difference and whether
//! it is a bug candidate), `batch_columns` in `results.csv`'s order and `volatile_columns`
//! (those that vary from run to run).

use crate::batch::store::JobRecord;
use crate::batch::table::{BatchRow, VOLATILE_COLUMNS};
use crate::replay::classify::Class;
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
    let columns = BatchRow::columns();
    let volatile = &columns[columns.len() - VOLATILE_COLUMNS..];
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "penumbra's JSON outputs",
        "description": "Each output's schema is named in `outputs`; `classes`, `batch_columns` and `volatile_columns` list the replay classes (most severe first) and the columns of results.csv in order.",
        "outputs": outputs,
        "classes": classes,
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
