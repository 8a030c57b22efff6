//! The results table: one row per job record, written as `results.csv` and `results.json`.
//!
//! Rows are sorted by (subject, mode, config) and columns are fixed (one per replay class, most
//! severe first, whether or not it occurs), so the same records always give the same bytes and
//! tables of different batches line up. The columns that measure time or memory come last:
//! everything before them is deterministic for count-bounded runs, and comparing two runs
//! means cutting those off (the last [`VOLATILE_COLUMNS`]).

use super::cells::{cells, Mebibytes, Seconds};
use super::store::{JobRecord, TestBrief};
use crate::replay::classify::Class;
use penumbra_engine::RunSummary;
use schemars::JsonSchema;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The columns whose values vary from run to run (timing and memory), always the last ones:
/// the time to the first observable difference (HyDiff's metric), the solver's time, the
/// engine's (exploration without compiling or replaying), the whole job's, and the job's peak
/// memory.
pub const VOLATILE_COLUMNS: usize = 5;

/// One row of the results table: a line of `results.csv` (its columns in field order), an
/// object of `results.json`'s `rows`. Empty (`null`) where the job has no value.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, Default, PartialEq)]
pub struct BatchRow {
    pub subject: String,
    pub mode: String,
    pub config: String,
    /// ok, timeout, memory-out, killed, error, no-seeds or not-prepared.
    pub outcome: String,
    pub diff_paths: Option<u64>,
    /// The expectation is complete mode's count (seeded mode may find fewer): empty in seeded
    /// rows.
    pub expected_diff_paths: Option<u64>,
    pub oracle_verified: Option<bool>,
    /// A prepared subject's seeds: `touching/tests` of the project's tests.
    pub tests_touching_patch: Option<String>,
    /// `touching/invocations` of their invocations.
    pub invocations_touching_patch: Option<String>,
    pub states: Option<u64>,
    pub instructions: Option<u64>,
    pub paths_completed: Option<u64>,
    pub errors: Option<u64>,
    /// Seeded mode's concolic phase: the divergences its seeds reached.
    pub divergence_points: Option<u64>,
    pub tests_divergence: Option<u64>,
    pub tests_error: Option<u64>,
    /// `class_NAME`: tests per replay class, most severe first (empty where the job did not
    /// replay).
    #[serde(flatten)]
    pub classes: ClassCounts,
    pub queries: Option<u64>,
    pub core_queries: Option<u64>,
    pub four_way_checks: Option<u64>,
    pub four_way_without_bitwuzla: Option<u64>,
    pub query_cache_hits: Option<u64>,
    pub cex_cache_hits: Option<u64>,
    pub independence_hits: Option<u64>,
    pub stopped_by: Option<String>,
    /// When the engine found the first test replay classified as an observable difference.
    pub first_difference_s: Option<Seconds>,
    pub solver_time_s: Option<Seconds>,
    /// The engine's wall time (exploration without compiling or replaying).
    pub engine_s: Option<Seconds>,
    /// The whole job's, compile and replay included.
    pub wall_s: Seconds,
    pub peak_rss_mb: Mebibytes,
}

/// Tests per class (`None`: the job did not replay), as the columns `class_NAME` in
/// [`Class::ALL`]'s order, every class named.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClassCounts(pub BTreeMap<Class, Option<u64>>);

/// The prefix of the class columns.
const CLASS_COLUMN: &str = "class_";

impl ClassCounts {
    pub fn column(class: Class) -> String {
        format!("{CLASS_COLUMN}{}", class.as_str())
    }
}

impl Serialize for ClassCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(Class::ALL.len()))?;
        for class in Class::ALL {
            map.serialize_entry(&ClassCounts::column(class), &self.0.get(&class).copied().flatten())?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ClassCounts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Columns;
        impl<'de> Visitor<'de> for Columns {
            type Value = ClassCounts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("columns class_NAME with counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ClassCounts, A::Error> {
                let mut counts = BTreeMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    let Some(name) = key.strip_prefix(CLASS_COLUMN) else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                        continue;
                    };
                    let class = Class::named(name)
                        .ok_or_else(|| serde::de::Error::custom(format!("no class is named `{name}`")))?;
                    counts.insert(class, map.next_value::<Option<u64>>()?);
                }
                Ok(ClassCounts(counts))
            }
        }
        d.deserialize_map(Columns)
    }
}

/// The class columns, one per class, each a count or `null`.
impl JsonSchema for ClassCounts {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ClassCounts".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let count = generator.subschema_for::<Option<u64>>();
        let properties: serde_json::Map<String, Value> =
            Class::ALL.iter().map(|&c| (ClassCounts::column(c), count.clone().to_value())).collect();
        schemars::json_schema!({ "type": "object", "properties": properties })
    }
}

impl BatchRow {
    /// The table's columns, in order.
    pub fn columns() -> Vec<String> {
        cells(&BatchRow::default()).expect("a batch row is a struct of cells").into_iter().map(|(c, _)| c).collect()
    }

    /// The row from a job's record.
    pub fn of(r: &JobRecord) -> BatchRow {
        let s = r.summary.as_ref();
        let get = |f: &dyn Fn(&RunSummary) -> u64| s.map(f);
        // A killed job's tests are those it left, replayed: counted, though its summary is lost.
        let ok = s.is_some() || !r.tests.is_empty();
        let count = |pred: &dyn Fn(&TestBrief) -> bool| ok.then(|| r.tests.iter().filter(|t| pred(t)).count() as u64);
        let complete = r.mode == "complete";
        // A job that did not replay has no classes to count: its cells stay empty, not 0.
        let replayed = r.args.iter().any(|a| a == "--replay");
        let classes =
            Class::ALL.iter().map(|&c| (c, if replayed { count(&|t| t.class == Some(c)) } else { None })).collect();
        BatchRow {
            subject: r.subject.clone(),
            mode: r.mode.clone(),
            config: r.config.clone(),
            outcome: r.outcome.clone(),
            diff_paths: get(&|s| s.diff_paths),
            expected_diff_paths: r.expected_diff_paths.filter(|_| complete),
            oracle_verified: r.oracle_verified.filter(|_| complete),
            tests_touching_patch: r.seed_selection.as_ref().map(|sel| format!("{}/{}", sel.tests_touching, sel.tests)),
            invocations_touching_patch: r
                .seed_selection
                .as_ref()
                .map(|sel| format!("{}/{}", sel.touching, sel.invocations)),
            states: get(&|s| s.states),
            instructions: get(&|s| s.instructions),
            paths_completed: get(&|s| s.paths_completed),
            errors: get(&|s| s.errors),
            divergence_points: get(&|s| s.divergence_points).filter(|_| r.mode == "seeded"),
            tests_divergence: count(&|t| t.kind == "divergence"),
            tests_error: count(&|t| t.kind == "error"),
            classes: ClassCounts(classes),
            queries: get(&|s| s.solver.queries),
            core_queries: get(&|s| s.solver.core_queries),
            four_way_checks: get(&|s| s.four_way.checks),
            four_way_without_bitwuzla: get(&|s| s.four_way.without_core),
            query_cache_hits: get(&|s| s.solver.query_cache.hits),
            cex_cache_hits: get(&|s| s.solver.cex_cache.hits),
            independence_hits: get(&|s| s.solver.independence.hits),
            stopped_by: s.and_then(|s| s.stopped_by.clone()),
            first_difference_s: first_difference(r).map(Seconds),
            solver_time_s: s.map(|s| Seconds(s.solver.time_s)),
            engine_s: s.map(|s| Seconds(s.wall_s)),
            wall_s: Seconds(r.wall_s),
            peak_rss_mb: Mebibytes(r.peak_rss_mb),
        }
    }
}

/// The table: its rows, in order.
#[derive(Debug, Clone)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<BatchRow>,
}

impl Table {
    pub fn to_csv(&self) -> String {
        let mut out = self.columns.join(",");
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> =
                cells(row).expect("a batch row is a struct of cells").iter().map(|(_, c)| c.csv()).collect();
            let _ = writeln!(out, "{}", cells.join(","));
        }
        out
    }

    pub fn to_json(&self, batch: &str) -> String {
        let doc = serde_json::json!({ "batch": batch, "columns": self.columns, "rows": self.rows });
        let mut text = serde_json::to_string_pretty(&doc).expect("a JSON value always serialises");
        text.push('\n');
        text
    }
}

/// When the engine found the first test that replay classified as an observable difference.
fn first_difference(r: &JobRecord) -> Option<f64> {
    r.tests.iter().filter(|t| t.class.is_some_and(Class::observable)).filter_map(|t| t.time_s).min_by(f64::total_cmp)
}

/// Builds the table from job records (any order).
pub fn build(records: &[&JobRecord]) -> Table {
    let mut records: Vec<&JobRecord> = records.to_vec();
    records.sort_by(|a, b| (&a.subject, &a.mode, &a.config).cmp(&(&b.subject, &b.mode, &b.config)));
    Table { columns: BatchRow::columns(), rows: records.iter().map(|r| BatchRow::of(r)).collect() }
}
