//! Output written inside `penumbra_execute(OLD|NEW)` blocks. A side of a block runs one
//! version alone, so what it prints cannot be compared where it is printed (as
//! [`Shadow::observe`] does for code both versions run): each side's output is recorded
//! instead, per stream, all of it (constant bytes too), and where the sides merge at the
//! join the two recordings are compared under the path condition as one printed text: where
//! they can differ, a copy of the state diverges (at the block's branch, each side
//! [`Side::Printed`]); where they can also agree, the state goes on constrained to agree.
//! A side that leaves the block early (an exit, an error, a return) is a divergence of its
//! own, after which only the new version runs: its recording is dropped with the block.
//!
//! # The rule: a block's output is compared at its join
//!
//! A path's output is a sequence of segments the versions share: writes of code both run
//! (each compared where it happens) and blocks (each compared at its join). So the versions
//! print the same on a path that reaches its end agreeing exactly when every segment agrees,
//! in order — except that two blocks with nothing printed between them could make up for each
//! other (old prints `X` in the first, new prints `X` in the second): that counts as a
//! divergence at the first block, as the output's timing differs (it would show on a
//! terminal, or between stdout and stderr). Ordering is therefore never lost: old printing
//! `X` in its block then both printing `Y`, against new printing `X` after `Y`, diverges at
//! the block (old `X`, new nothing).
//!
//! # How the two recordings are compared
//!
//! A recording is a list of [`Piece`]s per stream: bytes, C strings (printed up to a
//! terminator that may be symbolic) and `printf` conversions of symbolic values. After merging
//! constant bytes, when both lists have the same shape (piece by piece: bytes of the same
//! length, C strings, conversions with the same specification) the texts agree when each pair
//! does: bytes and conversion values equal, C strings as [`Shadow::observe_text`] compares them
//! (a byte after both ended never differs). Equal constant texts cost no solver call and
//! constant texts of different lengths differ for sure. Otherwise, when the texts' bytes that
//! no integer conversion prints (newlines, say) differ, they differ for sure; otherwise (a symbolic value printed
//! where the other version prints constant text, say) each symbolic value of both recordings
//! is fixed to its value in the state's model (counted as a `value` site of the summary's
//! concretized values; the other values of this path are not explored past the join) and the
//! two texts are compared as constants.

use super::Shadow;
use crate::libc::printf::{self, PrintfArgs};
use crate::libc::stdio::Stream;
use crate::run_error::RunError;
use crate::symbolic::concretize::Fixed;
use crate::symbolic::state::{ExecMode, ExecutionState, Frame, Side, Streams};
pub use crate::symbolic::written::{Piece, Written};
use penumbra_ir::Inst;
use penumbra_solver::{eval, mask, TermId};

impl<'p> Shadow<'_, 'p> {
    /// Whether `st` runs one side of a block, whose output is recorded, not observed.
    pub fn records_output(st: &ExecutionState) -> bool {
        matches!(st.mode, ExecMode::Block(_)) && st.execute.is_some()
    }

    /// In one side of a block, `piece` was written to `stream` (stdin: nothing is written).
    pub fn record(&mut self, st: &mut ExecutionState, stream: Stream, piece: Piece) {
        if !Self::records_output(st) {
            return;
        }
        let view = |t: &TermId| self.cx.view(st, *t);
        let piece = match piece {
            Piece::Bytes(t) => Piece::Bytes(t.iter().map(view).collect()),
            Piece::CString(t) => Piece::CString(t.iter().map(view).collect()),
            Piece::Conversion { spec, terms } => Piece::Conversion { spec, terms: terms.iter().map(view).collect() },
        };
        let index = match stream {
            Stream::Stdout => 0,
            Stream::Stderr => 1,
            Stream::Stdin => return,
        };
        if let Some(block) = st.execute.as_deref_mut() {
            block.written.streams[index].push(piece);
        }
    }

    /// `text` as constant byte terms.
    pub fn constant_bytes(&mut self, text: &[u8]) -> Vec<TermId> {
        text.iter().map(|&b| self.cx.store.constant(8, u64::from(b))).collect()
    }

    /// At a block's join (`st` running both versions again): the sides wrote `old` and `new`;
    /// where they can differ the path diverges at `branch`, the frame of the block's branch
    /// at `inst` (see the module documentation).
    pub(super) fn compare_block_output(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        old: &Written,
        new: &Written,
        branch: &Frame,
    ) -> Result<(), RunError> {
        let mut agree = [self.cx.store.tt(), self.cx.store.tt()];
        let mut fixed = Vec::new();
        for (i, same) in agree.iter_mut().enumerate() {
            let (o, n) = (self.normalize(&old.streams[i]), self.normalize(&new.streams[i]));
            *same = match self.shaped_agreement(&o, &n) {
                Some(same) => same,
                None if self.separators(&o) != self.separators(&n) => self.cx.store.ff(),
                None => {
                    fixed.extend(o.iter().chain(&n).flat_map(|p| p.terms().iter().copied()));
                    let (to, tn) = (self.render(st, &o), self.render(st, &n));
                    self.cx.store.constant(1, u64::from(to == tn))
                }
            };
        }
        self.fix_to_model(st, fixed);
        let streams = match agree.map(|t| self.cx.store.as_const(t) == Some(1)) {
            [true, true] => return Ok(()),
            [true, false] => Streams::Stderr,
            [false, true] => Streams::Stdout,
            [false, false] => Streams::Both,
        };
        let same = self.cx.store.and(agree[0], agree[1]);
        let sides = (Side::Printed(streams), Side::Printed(streams));
        self.observe_agreement(st, inst, same, sides, Some(branch))
    }

    /// `pieces` with C strings that end at a constant zero before any symbolic byte as bytes,
    /// adjacent bytes merged and empty ones dropped.
    fn normalize(&mut self, pieces: &[Piece]) -> Vec<Piece> {
        let mut out: Vec<Piece> = Vec::new();
        for piece in pieces {
            let piece = match piece {
                Piece::CString(bytes) => {
                    let store = &self.cx.store;
                    let first = bytes.iter().position(|&b| store.as_const(b).is_none_or(|c| c & 0xff == 0));
                    match first {
                        None => Piece::Bytes(bytes.clone()),
                        Some(k) if store.as_const(bytes[k]).is_some() => Piece::Bytes(bytes[..k].to_vec()),
                        Some(_) => piece.clone(),
                    }
                }
                _ => piece.clone(),
            };
            match (out.last_mut(), piece) {
                (_, Piece::Bytes(b)) if b.is_empty() => {}
                (Some(Piece::Bytes(a)), Piece::Bytes(b)) => a.extend(b),
                (_, piece) => out.push(piece),
            }
        }
        out
    }

    /// When the texts `old` and `new` of the same shape print the same (`None`: their shapes
    /// differ).
    fn shaped_agreement(&mut self, old: &[Piece], new: &[Piece]) -> Option<TermId> {
        if old.len() != new.len() {
            return None;
        }
        let mut same = self.cx.store.tt();
        for (o, n) in old.iter().zip(new) {
            let pair = match (o, n) {
                (Piece::Bytes(a), Piece::Bytes(b)) if a.len() == b.len() => {
                    let pairs: Vec<_> = a.iter().copied().zip(b.iter().copied()).collect();
                    self.text_agreement(&pairs, false)
                }
                (Piece::CString(a), Piece::CString(b)) => {
                    // Past the bytes read, a string has ended (or was cut where memory ends).
                    let zero = self.cx.store.zero(8);
                    let len = a.len().max(b.len());
                    let at = |s: &[TermId], i: usize| s.get(i).copied().unwrap_or(zero);
                    let pairs: Vec<_> = (0..len).map(|i| (at(a, i), at(b, i))).collect();
                    self.text_agreement(&pairs, true)
                }
                (Piece::Conversion { spec: sa, terms: a }, Piece::Conversion { spec: sb, terms: b })
                    if sa == sb
                        && a.len() == b.len()
                        && a.iter().zip(b).all(|(&x, &y)| self.cx.store.width(x) == self.cx.store.width(y)) =>
                {
                    let pairs: Vec<_> = a.iter().copied().zip(b.iter().copied()).collect();
                    self.text_agreement(&pairs, false)
                }
                _ => return None,
            };
            same = self.cx.store.and(same, pair);
        }
        Some(same)
    }

    /// The constant bytes of `pieces` that no integer conversion prints (a newline, say), in
    /// order, or `None` when a piece may print any byte: texts whose lists differ differ.
    fn separators(&self, pieces: &[Piece]) -> Option<Vec<u8>> {
        let integer = |spec: &[u8]| spec.last().is_some_and(|c| b"diuxXo".contains(c));
        let mut out = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Bytes(bytes) => {
                    for &b in bytes {
                        let b = self.cx.store.as_const(b)? as u8;
                        if !(b.is_ascii_hexdigit() || b"+- xX".contains(&b)) {
                            out.push(b);
                        }
                    }
                }
                Piece::Conversion { spec, .. } if integer(spec) => {}
                _ => return None,
            }
        }
        Some(out)
    }

    /// The text `pieces` print under the state's model.
    fn render(&self, st: &ExecutionState, pieces: &[Piece]) -> Vec<u8> {
        let value = |t: TermId| eval(&self.cx.store, t, &*st.model) & mask(self.cx.store.width(t));
        let mut out = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Bytes(bytes) => out.extend(bytes.iter().map(|&b| value(b) as u8)),
                Piece::CString(bytes) => out.extend(bytes.iter().map(|&b| value(b) as u8).take_while(|&b| b != 0)),
                Piece::Conversion { spec, terms } => {
                    let mut args = ModelArgs { values: terms.iter().map(|&t| value(t)).collect(), next: 0 };
                    // The conversion printed once with these values: it formats again.
                    let _ = printf::format(spec, &mut args, &mut out);
                }
            }
        }
        out
    }

    /// Fixes each symbolic term of `terms` to its value in the state's model, counted as
    /// a concretized `value` at the state's place.
    fn fix_to_model(&mut self, st: &mut ExecutionState, terms: Vec<TermId>) {
        let mut any = false;
        for t in terms {
            if self.cx.store.as_const(t).is_some() {
                continue;
            }
            let w = self.cx.store.width(t);
            let k = self.cx.store.constant(w, eval(&self.cx.store, t, &*st.model) & mask(w));
            let pin = self.cx.store.eq(t, k);
            st.pc.push(pin);
            any = true;
        }
        if any {
            let loc = self.cx.location(st);
            self.cx.stats.concretized_sites.entry((loc.file, loc.line, loc.func, Fixed::Value)).or_default().fixed += 1;
        }
    }
}

/// A conversion's arguments as the values they had: numbers in order, then a string's bytes.
struct ModelArgs {
    values: Vec<u64>,
    next: usize,
}

impl PrintfArgs for ModelArgs {
    type Error = ();

    fn next_arg(&mut self) -> Result<u64, ()> {
        let v = self.values.get(self.next).copied().ok_or(())?;
        self.next += 1;
        Ok(v)
    }

    fn next_string(&mut self) -> Result<u64, ()> {
        // Never null: the string's bytes follow.
        Ok(1)
    }

    fn next_float(&mut self, long: bool) -> Result<u128, ()> {
        let lo = u128::from(self.next_arg()?);
        Ok(if long { lo | u128::from(self.next_arg()?) << 64 } else { lo })
    }

    fn string(&mut self, _addr: u64, max: Option<u64>, out: &mut Vec<u8>) -> Result<(), ()> {
        let rest = self.values[self.next..].iter().map(|&v| v as u8).take_while(|&b| b != 0);
        out.extend(rest.take(max.map_or(usize::MAX, |m| m as usize)));
        Ok(())
    }

    fn unsupported(&mut self, _what: String) {}
}
