//! Where to draw each chip and link of a system's scale-up fabric (pure geometry; the page
//! renders it as SVG so every chip can be clicked).

use engine::system::{Shape, System};
use engine::topology::Fabric;

/// What kind of line a link is drawn as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// A neighbour link inside a layer.
    Link,
    /// A wraparound link, drawn as an arc outside the grid.
    Wrap,
    /// A link of the slowest axis (Trn2-Ultra's Z), drawn dashed in another colour.
    Slow,
    /// A chip's port to the switch.
    Port,
}

/// One drawn link between two chips (or a chip and the switch, `b == u32::MAX`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    /// One end (chip index).
    pub a: u32,
    /// Other end (chip index, or `u32::MAX` for the switch).
    pub b: u32,
    /// How it is drawn.
    pub kind: EdgeKind,
    /// SVG path data.
    pub path: (f64, f64, f64, f64, f64, f64),
}

/// Positions of chips and links, in SVG user units.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Layout {
    /// Centre of each chip.
    pub chips: Vec<(f64, f64)>,
    /// Links to draw.
    pub edges: Vec<Edge>,
    /// Centre and half-size of the switch box, if any.
    pub switch: Option<(f64, f64, f64)>,
    /// Canvas size.
    pub size: (f64, f64),
    /// Radius of a chip.
    pub radius: f64,
    /// Layer captions (position, text).
    pub captions: Vec<(f64, f64, String)>,
}

/// Straight segment as a degenerate quadratic (control point at the midpoint).
fn line(a: (f64, f64), b: (f64, f64)) -> (f64, f64, f64, f64, f64, f64) {
    (a.0, a.1, (a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0, b.0, b.1)
}

/// Lay out a system's fabric: tori as grids (3-D as layers side by side), switches as stars.
#[must_use]
pub fn layout(sys: &System) -> Layout {
    match &sys.shape {
        Shape::Switch { chips, .. } => star(*chips),
        Shape::Torus { dims } => torus(dims, &sys.fabric()),
        Shape::Tiered { tiers } => tiered(tiers),
    }
}

/// Tiers of switches: racks side by side, each server a row of chips (joined by its
/// switch, drawn as links along the row), and the direct links between racks as dashed
/// lines between chips in the same position.
fn tiered(tiers: &[u32]) -> Layout {
    let server = tiers[0];
    let servers = tiers.get(1).copied().unwrap_or(1);
    let racks = tiers.get(2).copied().unwrap_or(1);
    let rack = server * servers;
    let per_row = server.min(8);
    let rows = rack.div_ceil(per_row);
    let (gap, r, pad) = (26.0, 8.0, 34.0);
    let rack_w = f64::from(per_row - 1) * gap + 2.0 * pad;
    let between = 120.0;
    let top = pad + 22.0;
    let mut chips = Vec::with_capacity((rack * racks) as usize);
    for k in 0..racks {
        let ox = f64::from(k) * (rack_w + between) + pad;
        for i in 0..rack {
            chips.push((
                ox + f64::from(i % per_row) * gap,
                top + f64::from(i / per_row) * gap,
            ));
        }
    }
    let mut edges = Vec::new();
    for k in 0..racks {
        for i in 0..rack {
            let a = k * rack + i;
            // Along a server's row: its chips share the server's switch.
            if (i + 1) % per_row != 0 && (i + 1) % server != 0 && i + 1 < rack {
                edges.push(Edge {
                    a,
                    b: a + 1,
                    kind: EdgeKind::Link,
                    path: line(chips[a as usize], chips[(a + 1) as usize]),
                });
            }
            if k + 1 < racks {
                // An arc over the row, higher for chips further in, so it clears the row's
                // other chips.
                let b = (k + 1) * rack + i;
                let (p, q) = (chips[a as usize], chips[b as usize]);
                let lift = gap * 0.35 * f64::from(per_row - i % per_row);
                edges.push(Edge {
                    a,
                    b,
                    kind: EdgeKind::Slow,
                    path: (p.0, p.1, (p.0 + q.0) / 2.0, p.1 - lift, q.0, q.1),
                });
            }
        }
    }
    let captions = (0..racks)
        .map(|k| {
            (
                f64::from(k) * (rack_w + between) + pad - 12.0,
                pad - 4.0,
                format!("rack {} · {servers} servers × {server}", k + 1),
            )
        })
        .collect();
    Layout {
        chips,
        edges,
        switch: None,
        size: (
            f64::from(racks) * rack_w + f64::from(racks - 1) * between + pad,
            top + f64::from(rows) * gap + pad,
        ),
        radius: r,
        captions,
    }
}

fn star(n: u32) -> Layout {
    let r_chip = if n > 80 {
        6.0
    } else if n > 24 {
        9.0
    } else {
        16.0
    };
    let ring = (f64::from(n) * r_chip * 2.6 / core::f64::consts::TAU).max(90.0);
    let c = ring + r_chip + 20.0;
    let chips: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let t =
                f64::from(i) / f64::from(n) * core::f64::consts::TAU - core::f64::consts::FRAC_PI_2;
            (c + ring * t.cos(), c + ring * t.sin())
        })
        .collect();
    let edges = chips
        .iter()
        .enumerate()
        .map(|(i, p)| Edge {
            a: i as u32,
            b: u32::MAX,
            kind: EdgeKind::Port,
            path: line(*p, (c, c)),
        })
        .collect();
    Layout {
        chips,
        edges,
        switch: Some((c, c, (ring * 0.28).min(60.0))),
        size: (2.0 * c, 2.0 * c),
        radius: r_chip,
        captions: Vec::new(),
    }
}

fn torus(dims: &[u32], fabric: &Fabric) -> Layout {
    let kx = dims[0];
    let ky = dims.get(1).copied().unwrap_or(1);
    let kz = dims.get(2).copied().unwrap_or(1);
    let n = fabric.chips();
    let big = n > 64;
    let (gap, r) = if big { (26.0, 8.0) } else { (50.0, 15.0) };
    let pad = 34.0;
    let layer_w = f64::from(kx - 1) * gap + 2.0 * pad;
    let layer_h = f64::from(ky - 1) * gap + 2.0 * pad + 18.0;
    let per_row = match kz {
        1 | 2 => kz,
        3 | 4 => 2,
        _ => 4,
    };
    let rows = kz.div_ceil(per_row);
    let origin = |z: u32| {
        (
            f64::from(z % per_row) * (layer_w + 24.0) + pad,
            f64::from(z / per_row) * (layer_h + 16.0) + pad + 18.0,
        )
    };
    let mut chips = Vec::with_capacity(n as usize);
    for i in 0..n {
        let c = Fabric::coords(dims, i);
        let (ox, oy) = origin(c.get(2).copied().unwrap_or(0));
        chips.push((
            ox + f64::from(c[0]) * gap,
            oy + f64::from(c.get(1).copied().unwrap_or(0)) * gap,
        ));
    }
    let mut edges = Vec::new();
    let slow = if let Fabric::Torus { links, .. } = fabric {
        let min = links.iter().map(|b| b.get()).fold(f64::INFINITY, f64::min);
        let max = links.iter().map(|b| b.get()).fold(0.0, f64::max);
        (0..links.len())
            .map(|a| links[a].get() == min && min < max)
            .collect::<Vec<_>>()
    } else {
        vec![false; dims.len()]
    };
    for i in 0..n {
        let c = Fabric::coords(dims, i);
        for a in 0..dims.len().min(2) {
            let k = dims[a];
            if k < 2 || (k == 2 && c[a] == 1) {
                continue;
            }
            let mut d = c.clone();
            d[a] = (c[a] + 1) % k;
            let j = Fabric::index(dims, &d);
            let (p, q) = (chips[i as usize], chips[j as usize]);
            let kind = if slow[a] {
                EdgeKind::Slow
            } else {
                EdgeKind::Link
            };
            if d[a] == 0 && k > 2 {
                // The wraparound: a dashed stub leaving each end of the row or column.
                let stub = gap * 0.42;
                let (out_p, out_q) = if a == 0 {
                    ((p.0 + stub, p.1), (q.0 - stub, q.1))
                } else {
                    ((p.0, p.1 + stub), (q.0, q.1 - stub))
                };
                edges.push(Edge {
                    a: i,
                    b: j,
                    kind: EdgeKind::Wrap,
                    path: line(p, out_p),
                });
                edges.push(Edge {
                    a: j,
                    b: i,
                    kind: EdgeKind::Wrap,
                    path: line(q, out_q),
                });
            } else {
                edges.push(Edge {
                    a: i,
                    b: j,
                    kind,
                    path: line(p, q),
                });
            }
        }
    }
    let captions = (0..kz)
        .filter(|_| kz > 1)
        .map(|z| {
            let (ox, oy) = origin(z);
            (ox - pad * 0.6, oy - 24.0, format!("z = {z}"))
        })
        .collect();
    let width = f64::from(per_row) * (layer_w + 24.0);
    let height = f64::from(rows) * (layer_h + 16.0) + 20.0;
    Layout {
        chips,
        edges,
        switch: None,
        size: (width, height),
        radius: r,
        captions,
    }
}

/// The 16 chips of a 4×4 torus placed as the vertices of a 2×2×2×2 hypercube: chip (x, y)
/// sits at the vertex gray(x) | gray(y) << 2, so torus neighbours are hypercube neighbours.
#[must_use]
pub fn hypercube_view() -> Layout {
    let gray = |v: u32| v ^ (v >> 1);
    let offsets = [(0.0, 70.0), (70.0, 0.0), (32.0, 32.0), (170.0, 0.0)];
    let pos = |v: u32| {
        let mut p = (30.0, 30.0);
        for (b, o) in offsets.iter().enumerate() {
            if v >> b & 1 == 1 {
                p.0 += o.0;
                p.1 += o.1;
            }
        }
        p
    };
    let vertex = |i: u32| gray(i % 4) | (gray(i / 4) << 2);
    let chips: Vec<(f64, f64)> = (0..16).map(|i| pos(vertex(i))).collect();
    let mut edges = Vec::new();
    for i in 0..16u32 {
        for j in (i + 1)..16 {
            if (vertex(i) ^ vertex(j)).count_ones() == 1 {
                edges.push(Edge {
                    a: i,
                    b: j,
                    kind: EdgeKind::Link,
                    path: line(chips[i as usize], chips[j as usize]),
                });
            }
        }
    }
    Layout {
        chips,
        edges,
        switch: None,
        size: (330.0, 170.0),
        radius: 11.0,
        captions: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::system::find;

    #[test]
    fn every_link_of_the_torus_is_drawn_once_except_the_z_ring() {
        let s = find("trn2-16").unwrap();
        let l = layout(&s);
        assert_eq!(l.chips.len(), 16);
        // 4×4 torus: 24 grid links and 8 wraparounds, each drawn as a stub at both ends.
        assert_eq!(
            l.edges.iter().filter(|e| e.kind != EdgeKind::Wrap).count(),
            24
        );
        assert_eq!(
            l.edges.iter().filter(|e| e.kind == EdgeKind::Wrap).count(),
            16
        );
        let u = layout(&find("trn2-ultra-64").unwrap());
        assert_eq!(u.captions.len(), 4, "four layers");
        let sw = layout(&find("gb200-nvl72").unwrap());
        assert_eq!(sw.edges.len(), 72);
        assert!(sw.switch.is_some());
    }

    #[test]
    fn the_hypercube_view_keeps_torus_neighbours_adjacent() {
        let h = hypercube_view();
        assert_eq!(h.edges.len(), 32);
        let torus = find("trn2-16").unwrap().fabric();
        for e in &h.edges {
            assert_eq!(torus.distances(e.a)[e.b as usize], 1, "{e:?}");
        }
    }
}
