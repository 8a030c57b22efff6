//! A batch's `report.html`: one row per replayed job (its tests, its clusters, its top-ranked
//! cluster, a link to the job's own page in `reports/`) and the batch's plots, in one
//! self-contained page beside `results.csv`.

use super::clusters::Cluster;
use crate::markup::escape;
use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::path::Path;

/// One job of the batch as the index lists it.
pub struct JobLine<'a> {
    pub id: &'a str,
    pub subject: &'a str,
    pub mode: &'a str,
    pub config: &'a str,
    pub outcome: &'a str,
}

/// The batch's directory of its jobs' pages and clusters (not `jobs/`, whose every `.json` is a
/// job record).
pub const REPORTS: &str = "reports";

/// The file names a replayed job's page and clusters have in [`REPORTS`].
pub fn job_files(id: &str) -> (String, String) {
    (format!("{id}.html"), format!("{id}.clusters.json"))
}

/// Writes `out/report.html` for the batch's jobs (their pages and clusters, where they have
/// them, are in `out/reports/`).
pub fn write_index(out: &Path, name: &str, jobs: &[JobLine]) -> Result<()> {
    let mut h = String::new();
    let title = format!("penumbra batch: {name}");
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title><style>{1}</style></head><body>\n<h1>{0}</h1>\n",
        escape(&title),
        super::html::STYLE
    );
    h.push_str(
        "<p>Each replayed job's tests grouped by difference and ranked (its page: the clusters, \
         their simplest inputs, the lines where the versions parted); <code>results.csv</code> \
         has every figure.</p>\n<table><tr><th>subject</th><th>mode</th><th>config</th><th>outcome</th>\
         <th>tests</th><th>clusters</th><th>top-ranked cluster</th></tr>\n",
    );
    for job in jobs {
        let (page, clusters) = job_files(job.id);
        let clusters: Option<Vec<Cluster>> = std::fs::read_to_string(out.join(REPORTS).join(&clusters))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok());
        let (tests, count, top) = match &clusters {
            Some(c) => {
                let top = c.first().map_or("-".to_string(), |t| {
                    format!(
                        "<span class=\"{0}\">{0}</span> at {1}: {2}",
                        t.class.as_str(),
                        escape(t.site.as_deref().unwrap_or("-")),
                        escape(t.difference.as_deref().unwrap_or(&t.new_end))
                    )
                });
                let tests: u64 = c.iter().map(|t| t.count).sum();
                (tests.to_string(), format!("<a href=\"{REPORTS}/{}\">{}</a>", escape(&page), c.len()), top)
            }
            None => ("-".to_string(), "-".to_string(), "-".to_string()),
        };
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{tests}</td><td>{count}</td><td>{top}</td></tr>",
            escape(job.subject),
            escape(job.mode),
            escape(job.config),
            escape(job.outcome)
        );
    }
    h.push_str("</table>\n");
    for (file, svg) in super::plots(out)? {
        let _ = writeln!(h, "<section><h2>{}</h2>{svg}</section>", escape(&file));
    }
    h.push_str("</body></html>\n");
    let path = out.join("report.html");
    let tmp = out.join(".report.html.tmp");
    std::fs::write(&tmp, h).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))
}
