//! The Morris family (Nine Men's Morris, Lasker Morris, Morabaraba): the
//! board first ([`board`]: its points, lines, mills and symmetries), on
//! which the rules and the layered hash for retrograde analysis build.

pub mod board;
