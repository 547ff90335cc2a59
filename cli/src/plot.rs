//! `--plot FILE.svg`: the layer sizes as a bar chart, and `qbf suite`'s
//! solve times against depth.

use std::path::Path;

use plotters::prelude::*;

use bitsolve::error::{Error, Result};

/// The one-line error of a drawing that failed on `path`.
fn cannot_draw(path: &Path, e: &dyn std::fmt::Display) -> Error {
    Error::on_file("draw", path, std::io::Error::other(e.to_string()))
}

pub fn plot_layers(path: &Path, title: &str, layers: &[u64]) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| cannot_draw(path, e);
    let largest = layers.iter().copied().max().unwrap_or(1).max(1);
    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(90)
        .build_cartesian_2d(
            (0u32..layers.len() as u32).into_segmented(),
            0u64..largest + largest / 20,
        )
        .map_err(|e| failed(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("layer (distance from the start)")
        .y_desc("states")
        .draw()
        .map_err(|e| failed(&e))?;
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(BLUE.mix(0.7).filled())
                .margin(1)
                .data(
                    layers
                        .iter()
                        .enumerate()
                        .map(|(layer, &states)| (layer as u32, states)),
                ),
        )
        .map_err(|e| failed(&e))?;
    root.present().map_err(|e| failed(&e))?;
    Ok(())
}

/// One series of [`plot_times_by_depth`]: (depth, seconds) points.
pub struct Series {
    pub name: String,
    pub points: Vec<(usize, f64)>,
}

/// The q-quantile of sorted `values` (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[at]
}

/// `--plot` of `qbf suite`: seconds (log scale) against depth, per series
/// the median at each depth joined by a line, with a whisker from the
/// 10th to the 90th percentile. Medians and whiskers, not one mark per
/// formula: a thousand instances make nine thousand formulas, and an SVG
/// of them all would be megabytes.
pub fn plot_times_by_depth(path: &Path, title: &str, series: &[Series]) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| cannot_draw(path, e);
    // Per series, per depth: (depth, 10th percentile, median, 90th).
    let summaries: Vec<Vec<(usize, f64, f64, f64)>> = series
        .iter()
        .map(|s| {
            let mut depths: Vec<usize> = s.points.iter().map(|p| p.0).collect();
            depths.sort_unstable();
            depths.dedup();
            depths
                .into_iter()
                .map(|depth| {
                    let mut seconds: Vec<f64> = s
                        .points
                        .iter()
                        .filter(|p| p.0 == depth)
                        .map(|p| p.1.max(1e-5))
                        .collect();
                    seconds.sort_by(f64::total_cmp);
                    (
                        depth,
                        quantile(&seconds, 0.1),
                        quantile(&seconds, 0.5),
                        quantile(&seconds, 0.9),
                    )
                })
                .collect()
        })
        .collect();
    let all = summaries.iter().flatten();
    let deepest = all.clone().map(|s| s.0).max().unwrap_or(1);
    let lowest = all.clone().map(|s| s.1).fold(f64::INFINITY, f64::min);
    let highest = all.map(|s| s.3).fold(0.0, f64::max);
    let (lowest, highest) = if lowest.is_finite() {
        (lowest / 2.0, highest * 2.0)
    } else {
        (1e-4, 1.0)
    };
    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..deepest as f64 + 1.0, (lowest..highest).log_scale())
        .map_err(|e| failed(&e))?;
    chart
        .configure_mesh()
        .x_desc("depth (moves)")
        .y_desc("seconds (median, 10th-90th percentile)")
        .draw()
        .map_err(|e| failed(&e))?;
    let count = summaries.len().max(1) as f64;
    for (index, (s, summary)) in series.iter().zip(&summaries).enumerate() {
        let colour = Palette99::pick(index).to_rgba();
        // Side by side around each depth, so that whiskers do not overlap.
        let shift = (index as f64 - (count - 1.0) / 2.0) * 0.12;
        let at = |depth: usize| depth as f64 + shift;
        chart
            .draw_series(summary.iter().map(|&(depth, low, _, high)| {
                PathElement::new(vec![(at(depth), low), (at(depth), high)], colour)
            }))
            .map_err(|e| failed(&e))?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                summary
                    .iter()
                    .map(|&(d, _, median, _)| (at(d), median))
                    .collect::<Vec<_>>(),
                colour.stroke_width(2),
            )))
            .map_err(|e| failed(&e))?
            .label(&s.name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                summary
                    .iter()
                    .map(|&(d, _, median, _)| Circle::new((at(d), median), 3, colour.filled())),
            )
            .map_err(|e| failed(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| failed(&e))?;
    root.present().map_err(|e| failed(&e))?;
    Ok(())
}
