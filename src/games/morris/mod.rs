//! The Morris family (Nine Men's Morris, Lasker Morris, Morabaraba): the
//! board ([`board`]: its points, lines, mills and symmetries) and the
//! perfect hash of its stones ([`hash`]), on which the rules and the
//! layers for retrograde analysis build.

pub mod board;
pub mod hash;
pub mod rules;
