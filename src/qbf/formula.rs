//! Quantified Boolean formulas in prenex form: clauses (QDIMACS) or a
//! circuit of and/or gates (QCIR), their writers and readers, and the
//! Tseitin translation from a circuit to clauses.

use std::fmt::Write as _;

use crate::error::{Error, Result};

/// How a block of variables is quantified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// There is a value (QDIMACS `e`).
    Exists,
    /// For every value (QDIMACS `a`).
    Forall,
}

/// Quantifier blocks, outermost first.
pub type Prefix = Vec<(Quantifier, Vec<u32>)>;

/// A prenex CNF: variables 1..=variables, every one in exactly one block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cnf {
    /// The number of variables.
    pub variables: u32,
    /// The quantifier blocks.
    pub prefix: Prefix,
    /// The clauses, each a list of literals (-v is the negation of variable v).
    pub clauses: Vec<Vec<i32>>,
}

/// What a gate computes of its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateKind {
    /// True when every input is.
    And,
    /// True when some input is.
    Or,
}

/// A gate of a circuit: its own variable number, its kind and its input literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gate {
    /// The variable number that names the gate's output.
    pub id: u32,
    /// What the gate computes.
    pub kind: GateKind,
    /// Input literals: quantified variables or earlier gates, negated when negative.
    pub inputs: Vec<i32>,
}

/// A prenex circuit: quantified inputs, gates defined in order (each on
/// inputs and earlier gates), and the output literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circuit {
    /// The quantifier blocks of the inputs.
    pub prefix: Prefix,
    /// The gates, each defined on inputs and earlier gates.
    pub gates: Vec<Gate>,
    /// The literal whose truth is the formula's.
    pub output: i32,
}

/// Either kind, as an encoding produces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// Clauses (QDIMACS).
    Cnf(Cnf),
    /// A circuit (QCIR).
    Circuit(Circuit),
}

impl Formula {
    /// Variables (and gates) and clauses (or gates), for reports.
    pub fn size(&self) -> (u64, u64) {
        match self {
            Formula::Cnf(cnf) => (cnf.variables as u64, cnf.clauses.len() as u64),
            Formula::Circuit(circuit) => {
                let inputs: usize = circuit.prefix.iter().map(|(_, vars)| vars.len()).sum();
                (
                    inputs as u64 + circuit.gates.len() as u64,
                    circuit.gates.len() as u64,
                )
            }
        }
    }

    /// The formula as clauses (circuits through Tseitin).
    pub fn to_cnf(&self) -> Cnf {
        match self {
            Formula::Cnf(cnf) => cnf.clone(),
            Formula::Circuit(circuit) => tseitin(circuit),
        }
    }

    /// The formula in its own file format.
    pub fn write(&self) -> String {
        match self {
            Formula::Cnf(cnf) => write_qdimacs(cnf),
            Formula::Circuit(circuit) => write_qcir(circuit),
        }
    }
}

/// Merges adjacent blocks of one quantifier and drops empty blocks.
pub fn normalise(prefix: &Prefix) -> Prefix {
    let mut merged: Prefix = Vec::new();
    for (quantifier, vars) in prefix {
        if vars.is_empty() {
            continue;
        }
        match merged.last_mut() {
            Some((last, block)) if last == quantifier => block.extend(vars),
            _ => merged.push((*quantifier, vars.clone())),
        }
    }
    merged
}

fn quantifier_letter(quantifier: Quantifier) -> &'static str {
    match quantifier {
        Quantifier::Exists => "e",
        Quantifier::Forall => "a",
    }
}

/// QDIMACS text. Comments only before the header (DepQBF 5 aborts on a
/// comment after it).
pub fn write_qdimacs(cnf: &Cnf) -> String {
    let mut text = String::new();
    writeln!(text, "p cnf {} {}", cnf.variables, cnf.clauses.len()).unwrap();
    for (quantifier, vars) in normalise(&cnf.prefix) {
        text.push_str(quantifier_letter(quantifier));
        for var in vars {
            write!(text, " {var}").unwrap();
        }
        text.push_str(" 0\n");
    }
    for clause in &cnf.clauses {
        for literal in clause {
            write!(text, "{literal} ").unwrap();
        }
        text.push_str("0\n");
    }
    text
}

/// QCIR (G14) text.
pub fn write_qcir(circuit: &Circuit) -> String {
    let mut text = String::from("#QCIR-G14\n");
    for (quantifier, vars) in normalise(&circuit.prefix) {
        let names: Vec<String> = vars.iter().map(|v| v.to_string()).collect();
        let word = match quantifier {
            Quantifier::Exists => "exists",
            Quantifier::Forall => "forall",
        };
        writeln!(text, "{word}({})", names.join(", ")).unwrap();
    }
    writeln!(text, "output({})", circuit.output).unwrap();
    for gate in &circuit.gates {
        let inputs: Vec<String> = gate.inputs.iter().map(|l| l.to_string()).collect();
        let kind = match gate.kind {
            GateKind::And => "and",
            GateKind::Or => "or",
        };
        writeln!(text, "{} = {kind}({})", gate.id, inputs.join(", ")).unwrap();
    }
    text
}

/// Tseitin: one existential variable per gate (the gate's id), in the
/// innermost existential block, and the output asserted. Clauses follow the
/// polarity in which each gate is used (Plaisted-Greenbaum): a gate only
/// ever required true gets "gate implies its definition", one only required
/// false the converse, one used both ways both. DepQBF solved the lifted
/// encodings several times faster this way than with full equivalences.
pub fn tseitin(circuit: &Circuit) -> Cnf {
    let mut prefix = normalise(&circuit.prefix);
    let gate_ids: Vec<u32> = circuit.gates.iter().map(|g| g.id).collect();
    match prefix.last_mut() {
        Some((Quantifier::Exists, block)) => block.extend(&gate_ids),
        _ => prefix.push((Quantifier::Exists, gate_ids)),
    }
    // Polarity bits per gate: 1 = needed true, 2 = needed false.
    let index: std::collections::HashMap<u32, usize> = circuit
        .gates
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id, i))
        .collect();
    let mut polarity = vec![0u8; circuit.gates.len()];
    let mark = |polarity: &mut Vec<u8>, literal: i32, sign: u8| {
        if let Some(&i) = index.get(&literal.unsigned_abs()) {
            polarity[i] |= if literal > 0 { sign } else { 3 - sign };
        }
    };
    mark(&mut polarity, circuit.output, 1);
    for (i, gate) in circuit.gates.iter().enumerate().rev() {
        let p = polarity[i];
        for &input in &gate.inputs {
            for sign in [1u8, 2] {
                if p & sign != 0 {
                    mark(&mut polarity, input, sign);
                }
            }
        }
    }
    let mut clauses = Vec::new();
    for (gate, &p) in circuit.gates.iter().zip(&polarity) {
        let g = gate.id as i32;
        // For an or-gate, g -> (x1 or ... or xn) is the long clause and
        // xi -> g the short ones; an and-gate is the dual.
        let (long_sign, short_sign) = match gate.kind {
            GateKind::And => (2u8, 1u8),
            GateKind::Or => (1u8, 2u8),
        };
        if p & short_sign != 0 {
            for &input in &gate.inputs {
                clauses.push(match gate.kind {
                    GateKind::And => vec![-g, input],
                    GateKind::Or => vec![g, -input],
                });
            }
        }
        if p & long_sign != 0 {
            let mut long: Vec<i32> = match gate.kind {
                GateKind::And => gate.inputs.iter().map(|&l| -l).collect(),
                GateKind::Or => gate.inputs.clone(),
            };
            long.push(match gate.kind {
                GateKind::And => g,
                GateKind::Or => -g,
            });
            clauses.push(long);
        }
    }
    clauses.push(vec![circuit.output]);
    let variables = prefix
        .iter()
        .flat_map(|(_, vars)| vars.iter().copied())
        .max()
        .unwrap_or(0);
    Cnf {
        variables,
        prefix: normalise(&prefix),
        clauses,
    }
}

fn malformed(what: &str, why: String) -> Error {
    Error::InvalidParameter(format!("malformed {what}: {why}"))
}

/// Checks that every variable 1..=n is quantified exactly once and no block
/// is empty.
fn check_prefix(what: &str, prefix: &Prefix, n: u32) -> Result<()> {
    let mut seen = vec![false; n as usize + 1];
    for (_, vars) in prefix {
        if vars.is_empty() {
            return Err(malformed(what, "an empty quantifier block".into()));
        }
        for &var in vars {
            if var == 0 || var > n {
                return Err(malformed(what, format!("variable {var} outside 1..={n}")));
            }
            if std::mem::replace(&mut seen[var as usize], true) {
                return Err(malformed(what, format!("variable {var} quantified twice")));
            }
        }
    }
    Ok(())
}

/// Reads QDIMACS, checking the header counts and the quantification.
pub fn parse_qdimacs(text: &str) -> Result<Cnf> {
    let what = "QDIMACS";
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .skip_while(|l| l.starts_with('c'));
    let header = lines
        .next()
        .ok_or_else(|| malformed(what, "no header".into()))?;
    let fields: Vec<&str> = header.split_whitespace().collect();
    let (variables, clause_count) = match fields.as_slice() {
        ["p", "cnf", v, c] => (
            v.parse::<u32>()
                .map_err(|_| malformed(what, format!("header '{header}'")))?,
            c.parse::<usize>()
                .map_err(|_| malformed(what, format!("header '{header}'")))?,
        ),
        _ => return Err(malformed(what, format!("header '{header}'"))),
    };
    let mut prefix = Vec::new();
    let mut clauses = Vec::new();
    for line in lines {
        let mut tokens = line.split_whitespace().peekable();
        let quantifier = match tokens.peek() {
            Some(&"e") => Some(Quantifier::Exists),
            Some(&"a") => Some(Quantifier::Forall),
            Some(token) if token.starts_with('c') => {
                return Err(malformed(what, "a comment after the header".into()));
            }
            _ => None,
        };
        if quantifier.is_some() {
            tokens.next();
        }
        let numbers: Vec<i64> = tokens
            .map(|t| {
                t.parse::<i64>()
                    .map_err(|_| malformed(what, format!("'{t}' is not a number")))
            })
            .collect::<Result<_>>()?;
        if numbers.last() != Some(&0) {
            return Err(malformed(
                what,
                format!("line '{line}' does not end with 0"),
            ));
        }
        let body = &numbers[..numbers.len() - 1];
        match quantifier {
            Some(q) => {
                if !clauses.is_empty() {
                    return Err(malformed(
                        what,
                        "a quantifier block after the clauses".into(),
                    ));
                }
                prefix.push((q, body.iter().map(|&v| v as u32).collect()))
            }
            None => {
                if let Some(&bad) = body
                    .iter()
                    .find(|&&l| l == 0 || l.unsigned_abs() > variables as u64)
                {
                    return Err(malformed(
                        what,
                        format!("literal {bad} outside the {variables} variables"),
                    ));
                }
                clauses.push(body.iter().map(|&l| l as i32).collect());
            }
        }
    }
    if clauses.len() != clause_count {
        return Err(malformed(
            what,
            format!(
                "header says {clause_count} clauses, found {}",
                clauses.len()
            ),
        ));
    }
    check_prefix(what, &prefix, variables)?;
    // Solvers disagree on free variables (outermost existential, or an
    // error), so every variable must be quantified.
    let quantified: usize = prefix.iter().map(|(_, vars)| vars.len()).sum();
    if quantified != variables as usize {
        return Err(malformed(
            what,
            format!(
                "{} of the {variables} variables are not quantified",
                variables as usize - quantified
            ),
        ));
    }
    Ok(Cnf {
        variables,
        prefix,
        clauses,
    })
}

/// Reads QCIR-G14 (numeric identifiers), checking that every input is
/// quantified once, gates are defined before use, and the output exists.
pub fn parse_qcir(text: &str) -> Result<Circuit> {
    let what = "QCIR";
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    if !first.starts_with("#QCIR-G14") {
        return Err(malformed(what, "the first line is not #QCIR-G14".into()));
    }
    let inside = |line: &str, word: &str| -> Option<String> {
        line.strip_prefix(word)?
            .trim()
            .strip_prefix('(')?
            .strip_suffix(')')
            .map(str::to_string)
    };
    let numbers = |list: &str| -> Result<Vec<i64>> {
        list.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<i64>()
                    .map_err(|_| malformed(what, format!("'{t}' is not a numeric literal")))
            })
            .collect()
    };
    let mut prefix: Prefix = Vec::new();
    let mut output = None;
    let mut gates = Vec::new();
    let mut defined = std::collections::HashSet::new();
    for line in lines {
        if line.starts_with('#') {
            continue;
        }
        if let Some(list) = inside(line, "exists") {
            prefix.push((
                Quantifier::Exists,
                numbers(&list)?.into_iter().map(|v| v as u32).collect(),
            ));
        } else if let Some(list) = inside(line, "forall") {
            prefix.push((
                Quantifier::Forall,
                numbers(&list)?.into_iter().map(|v| v as u32).collect(),
            ));
        } else if let Some(list) = inside(line, "output") {
            output = Some(
                numbers(&list)?
                    .first()
                    .copied()
                    .ok_or_else(|| malformed(what, "empty output".into()))?,
            );
        } else if let Some((id, rest)) = line.split_once('=') {
            let id: u32 = id
                .trim()
                .parse()
                .map_err(|_| malformed(what, format!("gate '{}'", id.trim())))?;
            let rest = rest.trim();
            let (kind, list) = if let Some(list) = inside(rest, "and") {
                (GateKind::And, list)
            } else if let Some(list) = inside(rest, "or") {
                (GateKind::Or, list)
            } else {
                return Err(malformed(what, format!("gate '{line}'")));
            };
            gates.push(Gate {
                id,
                kind,
                inputs: numbers(&list)?.into_iter().map(|l| l as i32).collect(),
            });
        } else {
            return Err(malformed(what, format!("line '{line}'")));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for (_, vars) in &prefix {
        if vars.is_empty() {
            return Err(malformed(what, "an empty quantifier block".into()));
        }
        for var in vars {
            if !seen.insert(*var) {
                return Err(malformed(what, format!("variable {var} quantified twice")));
            }
        }
    }
    for gate in &gates {
        if seen.contains(&gate.id) || !defined.insert(gate.id) {
            return Err(malformed(
                what,
                format!("gate {} defined twice or as a variable", gate.id),
            ));
        }
        for input in &gate.inputs {
            let var = input.unsigned_abs();
            let known = seen.contains(&var) || (defined.contains(&var) && var != gate.id);
            if !known {
                return Err(malformed(
                    what,
                    format!("gate {} uses {var} before it is defined", gate.id),
                ));
            }
        }
    }
    let output = output.ok_or_else(|| malformed(what, "no output".into()))? as i32;
    let out = output.unsigned_abs();
    if !seen.contains(&out) && !defined.contains(&out) {
        return Err(malformed(what, format!("output {out} is not defined")));
    }
    Ok(Circuit {
        prefix,
        gates,
        output,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example_circuit() -> Circuit {
        // exists 1, forall 2, exists 3: (1 or 2) and (not 2 or 3)
        Circuit {
            prefix: vec![
                (Quantifier::Exists, vec![1]),
                (Quantifier::Forall, vec![2]),
                (Quantifier::Exists, vec![3]),
            ],
            gates: vec![
                Gate {
                    id: 4,
                    kind: GateKind::Or,
                    inputs: vec![1, 2],
                },
                Gate {
                    id: 5,
                    kind: GateKind::Or,
                    inputs: vec![-2, 3],
                },
                Gate {
                    id: 6,
                    kind: GateKind::And,
                    inputs: vec![4, 5],
                },
            ],
            output: 6,
        }
    }

    #[test]
    fn qcir_and_qdimacs_round_trip() {
        let circuit = example_circuit();
        assert_eq!(parse_qcir(&write_qcir(&circuit)).unwrap(), circuit);
        let cnf = tseitin(&circuit);
        assert_eq!(cnf.variables, 6);
        assert_eq!(
            cnf.prefix.last().unwrap(),
            &(Quantifier::Exists, vec![3, 4, 5, 6])
        );
        assert_eq!(parse_qdimacs(&write_qdimacs(&cnf)).unwrap(), cnf);
    }

    #[test]
    fn malformed_files_are_refused() {
        assert!(
            parse_qdimacs("p cnf 2 1\ne 1 0\n1 2 0\n").is_err(),
            "2 unquantified"
        );
        assert!(
            parse_qdimacs("p cnf 1 2\ne 1 0\n1 0\n").is_err(),
            "clause count"
        );
        assert!(
            parse_qdimacs("p cnf 1 1\ne 1 0\na 1 0\n1 0\n").is_err(),
            "twice"
        );
        assert!(
            parse_qdimacs("p cnf 1 1\ne 0\ne 1 0\n1 0\n").is_err(),
            "empty block"
        );
        assert!(
            parse_qcir("#QCIR-G14\nexists(1)\noutput(3)\n3 = and(1, 2)\n").is_err(),
            "undefined input"
        );
        assert!(parse_qcir("exists(1)\noutput(1)\n").is_err(), "header");
    }
}
