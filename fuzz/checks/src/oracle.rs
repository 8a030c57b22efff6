//! The brute-force oracle for complete shadow execution: run the old and the new version of a
//! unified program concretely on every input of a small domain, with traces
//! ([`RunConfig::trace`]), and derive from the two traces of each input whether it diverges
//! and which *diff path* of the engine it belongs to (its [`Signature`]).
//!
//! # Why a signature is one diff path
//!
//! The symbolic engine forks at exactly the decisions a trace records (`brif` sides and
//! `switch` targets; see [`TraceEvent`]), at implicit checks (bounds, division, shift,
//! assertion), which a run that passes them does not record and a run that fails them ends
//! at, and at outputs whose versions' values may differ (the trace records each output value).
//! The oracle walks the two traces as the engine's path runs the versions:
//! - Outside execute blocks both versions run jointly: the path's decisions are those both
//!   make, and outputs of equal values are not decisions (the path goes on agreeing).
//! - At a `penumbra_execute` block (ShadowJPF+; `change(old, new)` with operands that have
//!   effects is one too), the old version runs its side up to the join, then the new version
//!   its side: the path's decisions are the old side's, then the new side's, then the joint
//!   ones after the join. A side that ends (an error) or returns before the join is a
//!   divergence: after the old side's, the new side runs on alone; the new side's ends the path
//!   (or, for a return, the path follows it). The old side's exit is held while the new side
//!   runs: where that side exits too, the two exits are compared (statuses, then what the sides
//!   printed) and equal ones are no divergence; otherwise the block diverges at its branch,
//!   after both sides' decisions. What the sides print is compared at the join: where it
//!   differs, the path diverges there (after both sides' decisions).
//!
//! At the first difference the path takes a diverging outcome (which side *old* took there is
//! part of the path: `diff-true` and `diff-false` are different forks, and after a failed
//! check in old only the path goes on while after one in new only it ends; which check old
//! failed is part of it too, as a division is two checks and two forks; which output differed
//! is part of it, not the values). From then on the path follows the new version only,
//! two-way, so its remaining decisions are the new trace's. The path's ending is how the new
//! run ended: an exit, or an error at one particular instruction (a check the path failed).
//! Hence an engine diff path is determined by, and determines, `(the path's decisions up to
//! the difference, what old did there, new's decisions after it, new's ending kind and
//! place)`: exactly the inputs with one signature form one diff path, and `diff_paths` is the
//! number of distinct signatures. Old's behaviour after the difference is deliberately not in
//! the signature.
//!
//! Two details make the correspondence exact:
//! - **Switches** are asked by the engine as a chain of questions, one per distinct target in
//!   table order (cases sharing a target, or the default's target, are one question), the
//!   default last. [`Oracle::items`] rewrites each switch event into that chain (`false` for
//!   every earlier question, `true` for the target taken). So when old's target comes after
//!   new's, the path diverges at new's question with old on the `false` side, and old's actual
//!   target does not split the path further; when it comes before, old's question is the
//!   divergence and new's target is decided by the following questions.
//! - **Places within a straight-line stretch.** Two runs with the same decisions execute the
//!   same instructions in the same order, so the number of steps since the last trace event
//!   at which a run ended names the instruction, and a run's total step count is a function of
//!   its decisions. An error in one version only, where both traces ran out after the same
//!   events, is the check the other version passed: the earlier failing step is the
//!   divergence (`Fails` when old failed first and new went on, `Passes` when new failed
//!   first, which ends the path). Errors of the same kind at the same step in both versions
//!   are an ordinary error, not a divergence.
//!
//! The oracle serves the engine's shadow tests (hand-written C programs, `engine/tests/shadow/`)
//! and the `shadow` fuzz target (generated IR programs); [`crate::compare`] holds the
//! comparison of an engine run with it.
//!
//! Programs checked this way must not call the C library (the engine runs it as C code with
//! forks of its own) except `printf` of integers, must not call through function pointers,
//! and must keep out-of-bounds addresses out of every other object's bytes: the engine reports
//! such an address as an overflow of the object the pointer was derived from, the concrete
//! interpreter as an access to the object it lands in.

use penumbra_engine::concrete::{Inputs, Outcome, Program, RunConfig, RunResult, TraceEvent, Traced};
use penumbra_engine::ErrorKind;
use penumbra_ir::{Body, Func, Inst, InstData, Module, Version};
use std::collections::{BTreeMap, BTreeSet};

/// One input variable: a `make_symbolic` object of `bytes` bytes holding a little-endian
/// signed integer, enumerated over `lo..=hi` (the program's `penumbra_assume` range).
#[derive(Clone, Copy, Debug)]
pub struct Var {
    pub name: &'static str,
    pub bytes: usize,
    pub lo: i64,
    pub hi: i64,
}

/// An `int` input in `lo..=hi`.
pub const fn int(name: &'static str, lo: i64, hi: i64) -> Var {
    Var { name, bytes: 4, lo, hi }
}

/// A `char` input in `lo..=hi`.
pub const fn char(name: &'static str, lo: i64, hi: i64) -> Var {
    Var { name, bytes: 1, lo, hi }
}

/// One input: a value per variable, in the variables' order.
pub type Point = Vec<i64>;

/// Every point of the domain, the first variable varying slowest.
pub fn points(vars: &[Var]) -> Vec<Point> {
    let mut out: Vec<Point> = vec![Vec::new()];
    for v in vars {
        out = out.into_iter().flat_map(|p| (v.lo..=v.hi).map(move |x| [p.clone(), vec![x]].concat())).collect();
    }
    out
}

/// The concrete inputs of `point`.
pub fn inputs_of(vars: &[Var], point: &[i64]) -> Inputs {
    let map = vars.iter().zip(point).map(|(v, &x)| (v.name.to_string(), x.to_le_bytes()[..v.bytes].to_vec())).collect();
    Inputs::Named(map)
}

/// The point of a test's inputs (`name -> little-endian bytes`), if every variable has a value.
pub fn point_of(vars: &[Var], inputs: &[(String, Vec<u8>)]) -> Option<Point> {
    vars.iter()
        .map(|v| {
            let (_, bytes) = inputs.iter().find(|(n, _)| n == v.name)?;
            let mut raw = [0u8; 8];
            raw[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
            let shift = 64 - 8 * bytes.len().clamp(1, 8) as u32;
            Some((i64::from_le_bytes(raw) << shift) >> shift)
        })
        .collect()
}

/// One engine question: a `brif` (`question` 0) or the `question`-th target question of a
/// switch, and the side taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Decision {
    pub func: Func,
    pub inst: Inst,
    pub question: u32,
    pub side: bool,
}

/// How the new version's run ended, as far as it distinguishes paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    /// `main` returned or `exit` was called (any status).
    Exit,
    /// An error of `kind` at the instruction executed as step `step`.
    Error { kind: ErrorKind, step: u64 },
}

/// What the old version did at the first difference.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OldAction {
    /// Took this side of the decision where new took the other.
    Took(bool),
    /// Failed the check for `kind` at step `step`, which new passed (or, inside an execute
    /// block, its side ended with that error). The kind matters: one instruction can hold two
    /// checks (a division: the divisor is zero, then signed overflow), and the engine forks at
    /// each, so failing either is a different diff path.
    Fails { step: u64, kind: ErrorKind },
    /// Passed the check at which new failed (new's [`End`] names it).
    Passes,
    /// Exited inside its side of an execute block, where new's side reached the join,
    /// returned or failed.
    Exits,
    /// Exited inside its side of an execute block with another status than new's side.
    ExitsWithAnotherStatus,
    /// Returned from the block's function inside its side of an execute block.
    Returns,
    /// Reached the join of an execute block whose new side ended or returned.
    Continues,
    /// Printed different numbers than new inside its side of an execute block (compared at
    /// the join).
    Printed,
    /// Output a different value than new at new's `event`-th event (an output instruction, or
    /// one of its numbers: a `printf` of two). The values are not part of the path: the engine
    /// writes one test for every input whose outputs differ there.
    Output { event: usize },
}

/// An input's diff path (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// The path's decisions up to the first difference: the versions' common ones, and inside
    /// execute blocks the old side's then the new side's.
    pub prefix: Vec<Decision>,
    pub old: OldAction,
    /// The new version's decisions after the first difference (the path follows it alone).
    pub rest: Vec<Decision>,
    pub new_end: End,
}

/// What kind of place the versions first differ at, with what the engine must report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// A `brif`: old and new took these sides (`true`/`false` labels).
    Branch { old: bool, new: bool },
    /// Target question `question` of the switch `inst` of `func`; `new_took` says whether new
    /// took it (old then takes a later target) or old did (new takes a later one).
    Switch { func: Func, inst: Inst, question: u32, new_took: bool },
    /// A check failed in one version only (`fails`/`passes` labels).
    Check { old_fails: bool },
    /// An execute block's side of one version ended, exited or returned, where the other's
    /// reached the join: the engine's words for each (`fails`, `exits`, `returns`,
    /// `continues`).
    Block { old: &'static str, new: &'static str },
    /// The versions output these values (`value N` labels).
    Output { old: u64, new: u64 },
    /// The sides of an execute block printed different texts (`printed to stdout` labels).
    Printed,
}

/// A divergent input: its signature and where the first difference is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub signature: Signature,
    pub line: u32,
    pub site: Site,
}

/// The oracle's verdict on one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both versions reject the input by an assumption.
    Skipped,
    /// The versions make the same decisions and neither fails alone (they may still print or
    /// return different values).
    Same,
    /// Both fail the same check.
    BothError,
    Diverges(Divergence),
}

/// The oracle's answer for a whole domain.
#[derive(Debug, Default)]
pub struct Expected {
    /// Every signature with the inputs that have it.
    pub paths: BTreeMap<Signature, Vec<Point>>,
    pub divergent: BTreeSet<Point>,
    pub same: usize,
    pub both_error: usize,
    pub skipped: usize,
}

impl Expected {
    /// The expected `diff_paths`.
    pub fn diff_paths(&self) -> usize {
        self.paths.len()
    }
}

/// One event of a run as the engine's path sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Decide(Decision),
    Enter { func: Func, inst: Inst },
    Join,
    Return,
    Output { func: Func, inst: Inst, value: u64 },
}

impl Item {
    fn decision(&self) -> Option<Decision> {
        match *self {
            Item::Decide(d) => Some(d),
            _ => None,
        }
    }
}

/// How one version's side of an execute block ended.
enum SideEnd {
    Joined,
    Returned,
    Ended,
}

/// Runs one version's side of an execute block from `items[*k]`: its decisions join the path
/// and the numbers it prints go to `printed` (compared with the other side's at the join: the
/// programs print with `"%d\n"` only, so equal texts are equal number lists), up to the join,
/// a return from the block's function, or the end of the run.
fn side(items: &[(Item, u64)], k: &mut usize, path: &mut Vec<Decision>, printed: &mut Vec<u32>) -> SideEnd {
    while let Some(&(item, _)) = items.get(*k) {
        *k += 1;
        match item {
            Item::Decide(d) => path.push(d),
            Item::Output { value, .. } => printed.push(value as u32),
            Item::Join => return SideEnd::Joined,
            Item::Return => return SideEnd::Returned,
            Item::Enter { .. } => panic!("an execute block inside another one's side"),
        }
    }
    SideEnd::Ended
}

/// Both runs ended after the same events (`o` and `n`): the same way (`Ok`: no divergence), or
/// one version failed a check first (`Err`: what old did, where and at which line).
fn both_ended(
    point: &[i64],
    old: &RunResult,
    new: &RunResult,
    o: &[(Item, u64)],
    n: &[(Item, u64)],
) -> Result<Verdict, (OldAction, Site, u32)> {
    // Steps since the last event, which both runs reached after the same instructions.
    let since = |r: &RunResult, items: &[(Item, u64)]| r.steps - items.last().map_or(0, |e| e.1);
    let error = |r: &RunResult, items| match &r.outcome {
        Outcome::Error(e) => Some((e.kind, e.location.line, since(r, items))),
        _ => None,
    };
    // Which version failed first: the one with fewer steps. At one instruction, the
    // engine's order of the division checks decides: division by zero before signed
    // overflow.
    let old_first = match (error(old, o), error(new, n)) {
        (None, None) => return Ok(Verdict::Same),
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (Some((ko, _, so)), Some((kn, _, sn))) => {
            if so == sn && ko == kn {
                return Ok(Verdict::BothError);
            }
            if so == sn {
                let rank = |k| match k {
                    ErrorKind::DivisionByZero => 0,
                    ErrorKind::SignedDivisionOverflow => 1,
                    other => panic!("{point:?}: two different errors ({ko}, {kn}) at one instruction ({other})"),
                };
                rank(ko) < rank(kn)
            } else {
                so < sn
            }
        }
    };
    if old_first {
        let (kind, line, _) = error(old, o).expect("old failed");
        Err((OldAction::Fails { step: old.steps, kind }, Site::Check { old_fails: true }, line))
    } else {
        let (_, line, _) = error(new, n).expect("new failed");
        Err((OldAction::Passes, Site::Check { old_fails: false }, line))
    }
}

/// Runs are bounded so that a program bug (an endless loop) fails the test instead of hanging.
const MAX_STEPS: u64 = 1_000_000;

/// The oracle for one unified program and its input domain.
pub struct Oracle<'m> {
    module: &'m Module,
    program: Program<'m>,
    pub vars: Vec<Var>,
}

impl<'m> Oracle<'m> {
    pub fn new(module: &'m Module, vars: &[Var]) -> Self {
        let program = Program::new(module).unwrap_or_else(|e| panic!("cannot load the program: {e}"));
        Oracle { module, program, vars: vars.to_vec() }
    }

    /// Runs `version` on `point` with tracing.
    pub fn run(&self, version: Version, point: &[i64]) -> RunResult {
        self.run_inputs(version, inputs_of(&self.vars, point))
    }

    pub fn run_inputs(&self, version: Version, inputs: Inputs) -> RunResult {
        let config = RunConfig { version, inputs, trace: true, max_steps: Some(MAX_STEPS), ..RunConfig::default() };
        self.program.run(&config)
    }

    fn body(&self, func: Func) -> &'m Body {
        self.module.funcs[func].body.as_ref().expect("a traced function has a body")
    }

    /// The engine's target questions of the switch `inst`: for each case (in table order, then
    /// the default as the last index), the question that takes it, or `None` for the default
    /// group (asked by no question: the state that answered every question `false`).
    pub fn switch_questions(&self, func: Func, inst: Inst) -> Vec<Option<u32>> {
        let body = self.body(func);
        let InstData::Switch { table, .. } = &body.insts[inst] else { panic!("{inst} is not a switch") };
        let jt = &body.jump_tables[*table];
        // The engine's notion of one target: the same destination, or the same block with the
        // same arguments (`step.rs`).
        let same =
            |a, b| a == b || (body.dests[a].block == body.dests[b].block && body.dest_args(a) == body.dest_args(b));
        let mut groups = Vec::new();
        let mut out: Vec<Option<u32>> = jt
            .cases
            .iter()
            .map(|&(_, dest)| {
                if same(dest, jt.default) {
                    return None;
                }
                let i = groups.iter().position(|&d| same(d, dest)).unwrap_or_else(|| {
                    groups.push(dest);
                    groups.len() - 1
                });
                Some(i as u32)
            })
            .collect();
        out.push(None);
        out
    }

    /// The number of target questions of a switch (its distinct non-default targets).
    pub fn question_count(&self, func: Func, inst: Inst) -> u32 {
        self.switch_questions(func, inst).iter().flatten().max().map_or(0, |&m| m + 1)
    }

    /// The question whose target an engine label (`case K` or `default`) of the switch names.
    pub fn label_question(&self, func: Func, inst: Inst, label: &str) -> Option<Option<u32>> {
        let body = self.body(func);
        let InstData::Switch { arg, table } = &body.insts[inst] else { return None };
        let jt = &body.jump_tables[*table];
        let questions = self.switch_questions(func, inst);
        if label == "default" {
            return Some(None);
        }
        let k: i64 = label.strip_prefix("case ")?.parse().ok()?;
        let bits = body.values[*arg].ty.bits();
        let shift = 64 - bits;
        let index = jt.cases.iter().position(|&(v, _)| ((v << shift) as i64 >> shift) == k)?;
        Some(questions[index])
    }

    /// A trace as the engine sees it: each switch event as its chain of questions (see the
    /// module documentation on switches), with the step of each event.
    fn items(&self, trace: &[Traced]) -> Vec<(Item, u64)> {
        let mut out = Vec::with_capacity(trace.len());
        for &Traced { step, event } in trace {
            match event {
                TraceEvent::Brif { func, inst, side } => {
                    out.push((Item::Decide(Decision { func, inst, question: 0, side: side == 1 }), step))
                }
                TraceEvent::Switch { func, inst, index } => {
                    let taken = self.switch_questions(func, inst)[index as usize];
                    let asked = taken.map_or(self.question_count(func, inst), |q| q + 1);
                    for question in 0..asked {
                        out.push((
                            Item::Decide(Decision { func, inst, question, side: Some(question) == taken }),
                            step,
                        ));
                    }
                }
                TraceEvent::ExecuteEnter { func, inst } => out.push((Item::Enter { func, inst }, step)),
                TraceEvent::ExecuteJoin => out.push((Item::Join, step)),
                TraceEvent::ExecuteReturn => out.push((Item::Return, step)),
                TraceEvent::Output { func, inst, value } => out.push((Item::Output { func, inst, value }, step)),
            }
        }
        out
    }

    /// The source line of `inst` in `func`.
    pub fn line(&self, func: Func, inst: Inst) -> u32 {
        self.body(func).srclocs[inst].line
    }

    /// The verdict on one input.
    pub fn verdict(&self, point: &[i64]) -> Verdict {
        let old = self.run(Version::Old, point);
        let new = self.run(Version::New, point);
        self.judge(point, &old, &new)
    }

    /// The verdict from the two traced runs of `point`: walks the two traces as the engine's
    /// path runs the versions (see the module documentation).
    pub fn judge(&self, point: &[i64], old: &RunResult, new: &RunResult) -> Verdict {
        let rejected = |r: &RunResult| matches!(r.outcome, Outcome::AssumptionViolated(_));
        match (rejected(old), rejected(new)) {
            (true, true) => return Verdict::Skipped,
            (false, false) => {}
            _ => {
                panic!("{point:?}: only one version violates an assumption; assumptions must not depend on the version")
            }
        }
        for r in [old, new] {
            assert!(
                matches!(r.outcome, Outcome::Exit(_) | Outcome::Error(_)),
                "{point:?}: a run ended with {}; oracle programs must exit or fail",
                r.outcome
            );
        }
        let (o, n) = (self.items(&old.trace), self.items(&new.trace));
        let new_end = match &new.outcome {
            Outcome::Error(e) => End::Error { kind: e.kind, step: new.steps },
            _ => End::Exit,
        };
        let diverge = |prefix: Vec<Decision>, old: OldAction, rest: &[(Item, u64)], site, line| {
            let rest = rest.iter().filter_map(|(item, _)| item.decision()).collect();
            Verdict::Diverges(Divergence {
                signature: Signature { prefix, old, rest, new_end: new_end.clone() },
                line,
                site,
            })
        };
        let mut path = Vec::new();
        let (mut i, mut j) = (0, 0);
        loop {
            match (o.get(i).map(|e| e.0), n.get(j).map(|e| e.0)) {
                (Some(Item::Decide(a)), Some(Item::Decide(b))) => {
                    if a == b {
                        path.push(a);
                        (i, j) = (i + 1, j + 1);
                        continue;
                    }
                    assert_eq!(
                        (a.func, a.inst, a.question),
                        (b.func, b.inst, b.question),
                        "{point:?}: equal decisions led to different instructions (a call through a pointer?)"
                    );
                    let site = if a.question == 0 && matches!(self.body(a.func).insts[a.inst], InstData::Brif { .. }) {
                        Site::Branch { old: a.side, new: b.side }
                    } else {
                        Site::Switch { func: a.func, inst: a.inst, question: a.question, new_took: b.side }
                    };
                    return diverge(path, OldAction::Took(a.side), &n[j..], site, self.line(a.func, a.inst));
                }
                (Some(Item::Output { func, inst, value: vo }), Some(Item::Output { func: f, inst: k, value: vn })) => {
                    assert_eq!((func, inst), (f, k), "{point:?}: equal decisions led to different outputs");
                    if vo == vn {
                        (i, j) = (i + 1, j + 1);
                        continue;
                    }
                    let site = Site::Output { old: vo, new: vn };
                    return diverge(path, OldAction::Output { event: j }, &n[j + 1..], site, self.line(func, inst));
                }
                (Some(Item::Enter { func, inst }), Some(Item::Enter { func: f, inst: k })) => {
                    assert_eq!((func, inst), (f, k), "{point:?}: equal decisions led to different blocks");
                    (i, j) = (i + 1, j + 1);
                    let branch_line = self.line(func, inst);
                    let (mut old_printed, mut new_printed) = (Vec::new(), Vec::new());
                    match side(&o, &mut i, &mut path, &mut old_printed) {
                        SideEnd::Joined => {}
                        SideEnd::Returned => {
                            let site = Site::Block { old: "returns", new: "continues" };
                            return diverge(path, OldAction::Returns, &n[j..], site, branch_line);
                        }
                        SideEnd::Ended => {
                            let Outcome::Exit(old_status) = old.outcome else {
                                let (word, line) = self.ending(&o, old);
                                let Outcome::Error(e) = &old.outcome else { unreachable!("ending() names it") };
                                let action = OldAction::Fails { step: old.steps, kind: e.kind };
                                return diverge(
                                    path,
                                    action,
                                    &n[j..],
                                    Site::Block { old: word, new: "continues" },
                                    line,
                                );
                            };
                            // An exit is held while the new version's side runs; how that side
                            // leaves the block decides, at the block's branch.
                            let end = side(&n, &mut j, &mut path, &mut new_printed);
                            let (action, new_word) = match (end, &new.outcome) {
                                (SideEnd::Joined, _) => (OldAction::Exits, "continues"),
                                (SideEnd::Returned, _) => (OldAction::Exits, "returns"),
                                (SideEnd::Ended, Outcome::Exit(s)) if *s != old_status => {
                                    let site = Site::Output { old: old_status as u64 & 0xff, new: *s as u64 & 0xff };
                                    return diverge(path, OldAction::ExitsWithAnotherStatus, &[], site, branch_line);
                                }
                                (SideEnd::Ended, Outcome::Exit(_)) if old_printed != new_printed => {
                                    return diverge(path, OldAction::Printed, &[], Site::Printed, branch_line);
                                }
                                (SideEnd::Ended, Outcome::Exit(_)) => return Verdict::Same,
                                (SideEnd::Ended, _) => (OldAction::Exits, "fails"),
                            };
                            return diverge(
                                path,
                                action,
                                &n[j..],
                                Site::Block { old: "exits", new: new_word },
                                branch_line,
                            );
                        }
                    }
                    match side(&n, &mut j, &mut path, &mut new_printed) {
                        SideEnd::Joined if old_printed != new_printed => {
                            return diverge(path, OldAction::Printed, &n[j..], Site::Printed, branch_line);
                        }
                        SideEnd::Joined => {}
                        SideEnd::Returned => {
                            let site = Site::Block { old: "continues", new: "returns" };
                            return diverge(path, OldAction::Continues, &n[j..], site, branch_line);
                        }
                        SideEnd::Ended => {
                            let (word, line) = self.ending(&n, new);
                            return diverge(
                                path,
                                OldAction::Continues,
                                &[],
                                Site::Block { old: "continues", new: word },
                                line,
                            );
                        }
                    }
                }
                (None, None) => {
                    return match both_ended(point, old, new, &o, &n) {
                        Ok(verdict) => verdict,
                        Err((action, site, line)) => diverge(path, action, &[], site, line),
                    }
                }
                // Old ended where new went on to its next event: it failed a check new passed
                // (an exit would be at the same instruction in both, after equal outputs).
                (None, Some(_)) => {
                    let Outcome::Error(e) = &old.outcome else { panic!("{point:?}: old exited while new went on") };
                    let action = OldAction::Fails { step: old.steps, kind: e.kind };
                    return diverge(path, action, &n[j..], Site::Check { old_fails: true }, e.location.line);
                }
                (Some(_), None) => {
                    let Outcome::Error(e) = &new.outcome else { panic!("{point:?}: new exited while old went on") };
                    return diverge(path, OldAction::Passes, &[], Site::Check { old_fails: false }, e.location.line);
                }
                (a, b) => {
                    panic!("{point:?}: after equal decisions the versions' traces differ in kind: {a:?} and {b:?}")
                }
            }
        }
    }

    /// How a run that ended inside its side of an execute block ended, in the engine's word,
    /// and where: an error's line, or the line of the `exit` call (whose status is the run's
    /// last event).
    fn ending(&self, items: &[(Item, u64)], run: &RunResult) -> (&'static str, u32) {
        match (&run.outcome, items.last()) {
            (Outcome::Error(e), _) => ("fails", e.location.line),
            (_, Some(&(Item::Output { func, inst, .. }, _))) => ("exits", self.line(func, inst)),
            (other, last) => panic!("a run ended inside an execute block with {other} after {last:?}"),
        }
    }

    /// The verdict on every point of the domain. Also checks that the domain is the program's:
    /// one step outside any variable's range must be rejected by an assumption.
    pub fn explore(&self) -> Expected {
        let mut expected = Expected::default();
        for point in points(&self.vars) {
            match self.verdict(&point) {
                Verdict::Skipped => expected.skipped += 1,
                Verdict::Same => expected.same += 1,
                Verdict::BothError => expected.both_error += 1,
                Verdict::Diverges(d) => {
                    expected.divergent.insert(point.clone());
                    expected.paths.entry(d.signature).or_default().push(point);
                }
            }
        }
        let low: Point = self.vars.iter().map(|v| v.lo).collect();
        for (i, v) in self.vars.iter().enumerate() {
            for outside in [v.lo - 1, v.hi + 1] {
                let mut p = low.clone();
                p[i] = outside;
                assert_eq!(
                    self.verdict(&p),
                    Verdict::Skipped,
                    "{}={outside} is outside the enumerated domain but not rejected by an assumption",
                    v.name
                );
            }
        }
        expected
    }
}
