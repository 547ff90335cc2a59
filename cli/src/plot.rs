//! `--plot FILE.svg`: the layer sizes as a bar chart.

use std::path::Path;

use plotters::prelude::*;

use bitsolve::error::{Error, Result};

pub fn plot_layers(path: &Path, title: &str, layers: &[u64]) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| {
        Error::io(
            format!("cannot draw {}", path.display()),
            std::io::Error::other(e.to_string()),
        )
    };
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
