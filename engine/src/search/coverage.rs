//! Block coverage of a run: which blocks any state has entered, for the searchers that steer
//! toward code not run yet (KLEE's covering-new). The run loop marks a block when a state
//! jumps or calls into it; a counter of new blocks tells the searchers when their distances
//! are stale.

use penumbra_ir::{Block, Func, Module};

/// The blocks entered so far, per function.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// Per function (by index), one bit per block (by index).
    bits: Vec<Vec<u64>>,
    /// Blocks entered so far: grows with every new one (the searchers' staleness test).
    covered: u64,
}

impl Coverage {
    /// No block covered, room for every block of `module`.
    pub fn new(module: &Module) -> Self {
        let bits = module
            .funcs
            .values()
            .map(|f| vec![0u64; f.body.as_ref().map_or(0, |b| b.blocks.len().div_ceil(64))])
            .collect();
        Coverage { bits, covered: 0 }
    }

    /// Records that a state entered `block` of `func`; whether it is new.
    #[inline]
    pub fn mark(&mut self, func: Func, block: Block) -> bool {
        let (f, b) = (func.as_u32() as usize, block.as_u32() as usize);
        let Some(word) = self.bits.get_mut(f).and_then(|w| w.get_mut(b / 64)) else { return false };
        let bit = 1u64 << (b % 64);
        if *word & bit != 0 {
            return false;
        }
        *word |= bit;
        self.covered += 1;
        true
    }

    pub fn is_covered(&self, func: Func, block: Block) -> bool {
        let (f, b) = (func.as_u32() as usize, block.as_u32() as usize);
        self.bits.get(f).and_then(|w| w.get(b / 64)).is_some_and(|w| w & (1 << (b % 64)) != 0)
    }

    /// How many blocks are covered.
    pub fn covered(&self) -> u64 {
        self.covered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_entity::EntityRef;

    #[test]
    fn marks_once_and_counts() {
        let mut m = Module::new("t.c");
        let mut f = penumbra_ir::Function {
            name: "f".into(),
            sig: Default::default(),
            body: Some(Default::default()),
            line: 0,
            file: String::new(),
        };
        for _ in 0..70 {
            f.body.as_mut().unwrap().blocks.push(Default::default());
        }
        let func = m.add_func(f);
        let mut c = Coverage::new(&m);
        let b = Block::new(65);
        assert!(!c.is_covered(func, b));
        assert!(c.mark(func, b));
        assert!(!c.mark(func, b));
        assert!(c.is_covered(func, b));
        assert!(!c.is_covered(func, Block::new(1)));
        assert_eq!(c.covered(), 1);
    }
}
