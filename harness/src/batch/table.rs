//! The results table: one row per job record, written as `results.csv` and `results.json`.
//!
//! Rows are sorted by (subject, mode, config) and columns are fixed (one per replay class, most
//! severe first, whether or not it occurs), so the same records always give the same bytes and
//! tables of different batches line up. The columns that measure time or memory come last:
//! everything before them is deterministic for count-bounded runs, and comparing two runs
//! means cutting those off (the last four).

use super::store::JobRecord;
use crate::replay::classify::Class;
use serde_json::Value;
use std::fmt::Write as _;

/// The columns whose values vary from run to run (timing and memory), always the last ones:
/// the time to the first observable difference (HyDiff's metric), the solver's time, the
/// engine's (exploration without compiling or replaying), the whole job's, and the job's peak
/// memory.
pub const VOLATILE_COLUMNS: [&str; 5] = ["first_difference_s", "solver_time_s", "engine_s", "wall_s", "peak_rss_mb"];

/// Replay classes that are an observable difference between the versions (an output or exit
/// status that differs, or an error in one version only).
const OBSERVABLE: [&str; 4] = ["regression", "output-diff", "fix", "expected"];

/// One cell: an integer, a float with a fixed number of decimals, text, or nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Int(u64),
    Float(f64, usize),
    Text(String),
    Bool(bool),
    Empty,
}

impl Cell {
    fn csv(&self) -> String {
        match self {
            Cell::Int(v) => v.to_string(),
            Cell::Float(v, decimals) => format!("{v:.decimals$}"),
            Cell::Bool(b) => b.to_string(),
            Cell::Text(s) if s.contains([',', '"', '\n', '\r']) => format!("\"{}\"", s.replace('"', "\"\"")),
            Cell::Text(s) => s.clone(),
            Cell::Empty => String::new(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Int(v) => Value::from(*v),
            // Rounded like the CSV, so both files agree and stay stable.
            Cell::Float(v, decimals) => {
                format!("{v:.decimals$}").parse::<f64>().map(Value::from).unwrap_or(Value::Null)
            }
            Cell::Bool(b) => Value::from(*b),
            Cell::Text(s) => Value::from(s.as_str()),
            Cell::Empty => Value::Null,
        }
    }
}

/// The table: column names and rows of cells, in order.
#[derive(Debug, Clone)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn to_csv(&self) -> String {
        let mut out = self.columns.join(",");
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(Cell::csv).collect();
            let _ = writeln!(out, "{}", cells.join(","));
        }
        out
    }

    pub fn to_json(&self, batch: &str) -> String {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|row| Value::Object(self.columns.iter().cloned().zip(row.iter().map(Cell::json)).collect()))
            .collect();
        let doc = serde_json::json!({ "batch": batch, "columns": self.columns, "rows": rows });
        let mut text = serde_json::to_string_pretty(&doc).expect("a JSON value always serialises");
        text.push('\n');
        text
    }
}

fn int(summary: Option<&Value>, path: &[&str]) -> Cell {
    let mut v = match summary {
        Some(v) => v,
        None => return Cell::Empty,
    };
    for key in path {
        v = &v[*key];
    }
    v.as_u64().map(Cell::Int).unwrap_or(Cell::Empty)
}

/// When the engine found the first test that replay classified as an observable difference.
fn first_difference(r: &JobRecord) -> Cell {
    r.tests
        .iter()
        .filter(|t| t.class.as_deref().is_some_and(|c| OBSERVABLE.contains(&c)))
        .filter_map(|t| t.time_s)
        .min_by(f64::total_cmp)
        .map_or(Cell::Empty, |t| Cell::Float(t, 3))
}

/// Builds the table from job records (any order).
pub fn build(records: &[&JobRecord]) -> Table {
    let mut records: Vec<&JobRecord> = records.to_vec();
    records.sort_by(|a, b| (&a.subject, &a.mode, &a.config).cmp(&(&b.subject, &b.mode, &b.config)));
    let classes: Vec<&str> = Class::ALL.iter().map(|c| c.as_str()).collect();

    let mut columns: Vec<String> = [
        "subject",
        "mode",
        "config",
        "outcome",
        "diff_paths",
        "expected_diff_paths",
        "oracle_verified",
        "tests_touching_patch",
        "invocations_touching_patch",
        "states",
        "instructions",
        "paths_completed",
        "errors",
        "divergence_points",
        "tests_divergence",
        "tests_error",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    columns.extend(classes.iter().map(|c| format!("class_{c}")));
    columns.extend(
        [
            "queries",
            "core_queries",
            "four_way_checks",
            "four_way_without_bitwuzla",
            "query_cache_hits",
            "cex_cache_hits",
            "independence_hits",
            "stopped_by",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    columns.extend(VOLATILE_COLUMNS.iter().map(|s| s.to_string()));

    let rows = records
        .iter()
        .map(|r| {
            let s = r.summary.as_ref();
            // A killed job's tests are those it left, replayed: counted, though its summary is lost.
            let ok = s.is_some() || !r.tests.is_empty();
            let count = |pred: &dyn Fn(&super::store::TestBrief) -> bool| {
                if ok {
                    Cell::Int(r.tests.iter().filter(|t| pred(t)).count() as u64)
                } else {
                    Cell::Empty
                }
            };
            let mut row = vec![
                Cell::Text(r.subject.clone()),
                Cell::Text(r.mode.clone()),
                Cell::Text(r.config.clone()),
                Cell::Text(r.outcome.clone()),
                int(s, &["diff_paths"]),
                // The expectation is complete mode's count; seeded mode may find fewer.
                match (r.mode.as_str(), r.expected_diff_paths) {
                    ("complete", Some(n)) => Cell::Int(n),
                    _ => Cell::Empty,
                },
                match (r.mode.as_str(), r.oracle_verified) {
                    ("complete", Some(b)) => Cell::Bool(b),
                    _ => Cell::Empty,
                },
                match &r.seed_selection {
                    Some(sel) => Cell::Text(format!("{}/{}", sel.tests_touching, sel.tests)),
                    None => Cell::Empty,
                },
                match &r.seed_selection {
                    Some(sel) => Cell::Text(format!("{}/{}", sel.touching, sel.invocations)),
                    None => Cell::Empty,
                },
                int(s, &["states"]),
                int(s, &["instructions"]),
                int(s, &["paths_completed"]),
                int(s, &["errors"]),
                // Seeded mode's concolic phase: the divergences its seeds reached.
                match r.mode.as_str() {
                    "seeded" => int(s, &["divergence_points"]),
                    _ => Cell::Empty,
                },
                count(&|t| t.kind == "divergence"),
                count(&|t| t.kind == "error"),
            ];
            // A job that did not replay has no classes to count: its cells stay empty, not 0.
            let replayed = r.args.iter().any(|a| a == "--replay");
            for class in &classes {
                row.push(match replayed {
                    true => count(&|t| t.class.as_deref() == Some(*class)),
                    false => Cell::Empty,
                });
            }
            row.extend([
                int(s, &["solver", "queries"]),
                int(s, &["solver", "core_queries"]),
                int(s, &["four_way", "checks"]),
                int(s, &["four_way", "without_core"]),
                int(s, &["solver", "query_cache", "hits"]),
                int(s, &["solver", "cex_cache", "hits"]),
                int(s, &["solver", "independence", "hits"]),
                match s.map(|s| &s["stopped_by"]) {
                    Some(Value::String(by)) => Cell::Text(by.clone()),
                    Some(Value::Null) | None => Cell::Empty,
                    Some(other) => Cell::Text(other.to_string()),
                },
                first_difference(r),
                match s.and_then(|s| s["solver"]["time_s"].as_f64()) {
                    Some(t) => Cell::Float(t, 3),
                    None => Cell::Empty,
                },
                match s.and_then(|s| s["wall_s"].as_f64()) {
                    Some(t) => Cell::Float(t, 3),
                    None => Cell::Empty,
                },
                Cell::Float(r.wall_s, 3),
                Cell::Float(r.peak_rss_mb, 1),
            ]);
            row
        })
        .collect();
    Table { columns, rows }
}
