//! The solved layers below a layer, as the judge reads them
//! ([`LowerLayers`]): the next layer only, or several.

use crate::table::TwoBitTable;

/// The solved layers below that a layer's moves reach, as the judge reads
/// them: a type per case, so that the common one (the next layer only)
/// compiles to the lookup it always was. Read through one enum
/// ([`Below`](crate::search::retro2::seam::Below)) with a branch per move, Fox-and-Geese's
/// passes took 7–10 % longer (capture-wins `--symmetry` layer 9, default
/// rule layers 1..8).
pub trait LowerLayers: Copy + Sync {
    /// The table of lower layer `at`; a panic when it is not held (a
    /// game's layering is wrong).
    fn table(&self, at: usize) -> &TwoBitTable;
}

/// The layer just below, if any (none for layer 0 and layers solved alone).
#[derive(Clone, Copy)]
pub struct NextLayer<'a>(pub Option<&'a TwoBitTable>);

impl LowerLayers for NextLayer<'_> {
    #[inline(always)]
    fn table(&self, _at: usize) -> &TwoBitTable {
        self.0
            .expect("a move to a lower layer needs that layer solved")
    }
}

/// Several layers below, indexed by layer
/// ([`LayerLinks::several_layers_below`](crate::space::LayerLinks::several_layers_below)).
#[derive(Clone, Copy)]
pub struct SeveralLayers<'a>(pub &'a [Option<TwoBitTable>]);

impl LowerLayers for SeveralLayers<'_> {
    #[inline(always)]
    fn table(&self, at: usize) -> &TwoBitTable {
        self.0
            .get(at)
            .and_then(Option::as_ref)
            .expect("a move to a lower layer needs that layer solved")
    }
}
