//! Helpers the encodings share: variable allocation in quantifier blocks,
//! clauses, gates, and the logarithmic encoding of cells ("bin").

use super::formula::{Circuit, Cnf, Gate, GateKind, Prefix, Quantifier};

/// Allocates variables block by block, then clauses or gates.
#[derive(Default)]
pub struct Builder {
    next: u32,
    prefix: Prefix,
    clauses: Vec<Vec<i32>>,
    gates: Vec<Gate>,
    /// Gate ids for `and()` / `or()` of no inputs, made once.
    constants: Option<(i32, i32)>,
}

impl Builder {
    /// A builder with no variables yet.
    pub fn new() -> Self {
        Builder::default()
    }

    /// A new variable in a block of `quantifier` (the last block if it has
    /// that quantifier, else a new one).
    pub fn var(&mut self, quantifier: Quantifier) -> i32 {
        self.next += 1;
        match self.prefix.last_mut() {
            Some((q, block)) if *q == quantifier => block.push(self.next),
            _ => self.prefix.push((quantifier, vec![self.next])),
        }
        self.next as i32
    }

    /// `count` new variables in a block of `quantifier`, in order.
    pub fn vars(&mut self, quantifier: Quantifier, count: usize) -> Vec<i32> {
        (0..count).map(|_| self.var(quantifier)).collect()
    }

    /// Adds a clause: the disjunction of `literals`.
    pub fn clause(&mut self, literals: impl IntoIterator<Item = i32>) {
        self.clauses.push(literals.into_iter().collect());
    }

    /// The prefix and clauses as a CNF (gates are dropped).
    pub fn into_cnf(self) -> Cnf {
        Cnf {
            variables: self.next,
            prefix: self.prefix,
            clauses: self.clauses,
        }
    }

    fn gate(&mut self, kind: GateKind, inputs: Vec<i32>) -> i32 {
        self.next += 1;
        self.gates.push(Gate {
            id: self.next,
            kind,
            inputs,
        });
        self.next as i32
    }

    /// An and-gate; one input is returned as it is.
    pub fn and(&mut self, inputs: Vec<i32>) -> i32 {
        if inputs.len() == 1 {
            inputs[0]
        } else {
            self.gate(GateKind::And, inputs)
        }
    }

    /// An or-gate; one input is returned as it is.
    pub fn or(&mut self, inputs: Vec<i32>) -> i32 {
        if inputs.len() == 1 {
            inputs[0]
        } else {
            self.gate(GateKind::Or, inputs)
        }
    }

    /// The constant true (an empty and-gate).
    pub fn truth(&mut self) -> i32 {
        self.constants().0
    }

    /// The constant false (an empty or-gate).
    pub fn falsity(&mut self) -> i32 {
        self.constants().1
    }

    fn constants(&mut self) -> (i32, i32) {
        if let Some(constants) = self.constants {
            return constants;
        }
        let truth = self.gate(GateKind::And, Vec::new());
        let falsity = self.gate(GateKind::Or, Vec::new());
        self.constants = Some((truth, falsity));
        (truth, falsity)
    }

    /// a -> b.
    pub fn implies(&mut self, a: i32, b: i32) -> i32 {
        self.or(vec![-a, b])
    }

    /// a <-> b.
    pub fn iff(&mut self, a: i32, b: i32) -> i32 {
        let forward = self.or(vec![-a, b]);
        let backward = self.or(vec![a, -b]);
        self.and(vec![forward, backward])
    }

    /// Two bit vectors are equal (bit-wise equivalence).
    pub fn equal(&mut self, x: &[i32], y: &[i32]) -> i32 {
        let bits: Vec<i32> = x.iter().zip(y).map(|(&a, &b)| self.iff(a, b)).collect();
        self.and(bits)
    }

    /// bin(x, v): the bits spell v.
    pub fn bin(&mut self, x: &[i32], v: usize) -> i32 {
        let literals = spell(x, v);
        self.and(literals)
    }

    /// x < bound as unsigned numbers (x's bit 0 is the lowest).
    pub fn less_than(&mut self, x: &[i32], bound: usize) -> i32 {
        if bound >= 1 << x.len() {
            return self.truth();
        }
        // x < bound iff for some bit i set in bound, x has 0 there and the
        // bits above i agree with bound.
        let mut options = Vec::new();
        for i in (0..x.len()).filter(|&i| bound >> i & 1 == 1) {
            let mut literals = vec![-x[i]];
            for (j, &bit) in x.iter().enumerate().skip(i + 1) {
                literals.push(if bound >> j & 1 == 1 { bit } else { -bit });
            }
            options.push(self.and(literals));
        }
        if options.is_empty() {
            self.falsity()
        } else {
            self.or(options)
        }
    }

    /// The prefix and gates as a circuit whose output is gate or literal `output`.
    pub fn into_circuit(self, output: i32) -> Circuit {
        Circuit {
            prefix: self.prefix,
            gates: self.gates,
            output,
        }
    }
}

/// The literals saying that bits `x` spell `v` (`x[i]` is bit i).
pub fn spell(x: &[i32], v: usize) -> Vec<i32> {
    x.iter()
        .enumerate()
        .map(|(i, &bit)| if v >> i & 1 == 1 { bit } else { -bit })
        .collect()
}
