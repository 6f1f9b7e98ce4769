//! A small bar chart drawn into an RGB pixel buffer and encoded as PNG.

const W: usize = 480;
const H: usize = 200;
const MARGIN: usize = 16;

/// A PNG of `values` as bars (one per value, at most 240), in `color`.
pub(crate) fn bar_chart(values: &[f64], color: [u8; 3]) -> Vec<u8> {
    let mut px = vec![255u8; W * H * 3];
    let mut set = |x: usize, y: usize, c: [u8; 3]| {
        if x < W && y < H {
            let o = (y * W + x) * 3;
            px[o..o + 3].copy_from_slice(&c);
        }
    };
    // Axes.
    for x in MARGIN..W - MARGIN {
        set(x, H - MARGIN, [0, 0, 0]);
    }
    for y in MARGIN..=H - MARGIN {
        set(MARGIN, y, [0, 0, 0]);
    }
    // Grid lines every quarter.
    for q in 1..4 {
        let y = H - MARGIN - q * (H - 2 * MARGIN) / 4;
        for x in (MARGIN + 1..W - MARGIN).step_by(4) {
            set(x, y, [200, 200, 200]);
        }
    }
    let values = &values[..values.len().min(240)];
    let max = values.iter().cloned().fold(0.0f64, f64::max);
    if !values.is_empty() && max > 0.0 {
        let plot_w = W - 2 * MARGIN - 2;
        let slot = plot_w / values.len();
        let bar = (slot * 3 / 4).max(1);
        let plot_h = (H - 2 * MARGIN - 1) as f64;
        for (i, v) in values.iter().enumerate() {
            let h = ((v / max) * plot_h).round() as usize;
            let x0 = MARGIN + 2 + i * slot;
            for x in x0..x0 + bar {
                for y in (H - MARGIN - h)..(H - MARGIN) {
                    set(x, y, color);
                }
            }
        }
    }
    encode(&px).unwrap_or_default()
}

fn encode(px: &[u8]) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, W as u32, H as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header()?;
        w.write_image_data(px)?;
        w.finish()?;
    }
    Ok(out)
}
