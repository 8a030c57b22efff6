//! The query log: every query that reaches Bitwuzla, as a self-contained
//! SMT-LIB2 script, with penumbra's answer and the time Bitwuzla took.
//!
//! # Format
//! The log is a sequence of scripts. Each script starts with a header line
//! `; penumbra query N` (N counts from 1) and reads:
//! ```text
//! ; penumbra query 3
//! (set-logic QF_BV)
//! (declare-fun |x[0]| () (_ BitVec 8))
//! (define-fun t12 () (_ BitVec 8) ...)      ; shared subterms, if any
//! (assert (= ... #b1))                        ; the path-condition part
//! (assert (= ... #b1))                        ; the assumptions (branch literals)
//! (check-sat)
//! ; answer: sat
//! ; time_us: 154
//! ```
//! `answer` is `sat`, `unsat` or `unknown` (a timeout); `time_us` is the
//! wall time of Bitwuzla's check in microseconds. Everything a script needs
//! is inside it, so splitting the file at header lines (see [`split_log`])
//! gives files any SMT-LIB solver runs: `z3 -smt2 query.smt2` must print the
//! same answer (unknowns excepted).
//!
//! With incremental solving on, the path-condition part is whatever Bitwuzla
//! had on its assertion stack for the query: the logged script is the
//! conjunction Bitwuzla decided, solved from scratch.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::SolverError;
use crate::smtlib::write_constraints;
use crate::term::{TermId, TermStore};

/// Header line prefix of every script in the log.
pub const HEADER: &str = "; penumbra query ";

/// An open query log.
pub(crate) struct QueryLog {
    path: PathBuf,
    out: BufWriter<File>,
    count: u64,
}

impl QueryLog {
    /// Creates (truncates) the log file.
    pub(crate) fn create(path: &Path) -> Result<Self, SolverError> {
        let file = File::create(path).map_err(|source| SolverError::QueryLog { path: path.to_owned(), source })?;
        Ok(QueryLog { path: path.to_owned(), out: BufWriter::new(file), count: 0 })
    }

    /// Appends one query script up to its `(check-sat)` and flushes it: written before
    /// Bitwuzla runs, so a query that never returns is in the log. [`QueryLog::answer`]
    /// completes it.
    pub(crate) fn query(&mut self, store: &TermStore, constraints: &[TermId]) -> Result<(), SolverError> {
        self.count += 1;
        let logic = crate::smtlib::logic_of(store, constraints);
        let mut s = format!("{HEADER}{}\n(set-logic {logic})\n", self.count);
        write_constraints(store, constraints, &mut s);
        s.push_str("(check-sat)\n");
        self.put(&s)
    }

    /// Appends the answer and Bitwuzla's time of the query just written, and flushes.
    pub(crate) fn answer(&mut self, answer: &str, time_us: u64) -> Result<(), SolverError> {
        self.put(&format!("; answer: {answer}\n; time_us: {time_us}\n"))
    }

    fn put(&mut self, text: &str) -> Result<(), SolverError> {
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(|source| SolverError::QueryLog { path: self.path.clone(), source })
    }
}

/// One script of a query log, as read back by [`split_log`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedQuery {
    /// N of the header line.
    pub index: u64,
    /// The script, header included.
    pub script: String,
    /// `sat`, `unsat` or `unknown`.
    pub answer: String,
    /// Bitwuzla's time in microseconds.
    pub time_us: u64,
}

/// Splits a query log into its scripts.
pub fn split_log(text: &str) -> Vec<LoggedQuery> {
    let mut out: Vec<LoggedQuery> = Vec::new();
    for line in text.lines() {
        if let Some(n) = line.strip_prefix(HEADER) {
            out.push(LoggedQuery {
                index: n.trim().parse().unwrap_or(0),
                script: String::new(),
                answer: String::new(),
                time_us: 0,
            });
        }
        let Some(q) = out.last_mut() else { continue };
        q.script.push_str(line);
        q.script.push('\n');
        if let Some(a) = line.strip_prefix("; answer: ") {
            q.answer = a.trim().to_string();
        } else if let Some(t) = line.strip_prefix("; time_us: ") {
            q.time_us = t.trim().parse().unwrap_or(0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_round_trips_through_split() {
        let dir = std::env::temp_dir().join(format!("penumbra-qlog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("q.smt2");
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let x = s.var(x);
        let k = s.constant(8, 3);
        let c = s.ult(x, k);
        let mut log = QueryLog::create(&path).unwrap();
        log.query(&s, &[c]).unwrap();
        log.answer("sat", 12).unwrap();
        log.query(&s, &[]).unwrap();
        log.answer("unsat", 7).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        let qs = split_log(&text);
        assert_eq!(qs.len(), 2);
        assert_eq!(qs[0].index, 1);
        assert_eq!(qs[0].answer, "sat");
        assert_eq!(qs[0].time_us, 12);
        assert_eq!(
            qs[0].script,
            "; penumbra query 1\n(set-logic QF_BV)\n(declare-fun |x| () (_ BitVec 8))\n\
             (assert (= (ite (bvult |x| #x03) #b1 #b0) #b1))\n(check-sat)\n; answer: sat\n; time_us: 12\n"
        );
        assert_eq!(qs[1].answer, "unsat");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
