//! Scale-up fabrics as graphs: ring, torus, hypercube, single-level switch.
//!
//! Bandwidths are per link and per direction. Hop counts count chip-to-chip traversals; a
//! switch counts as one hop. Bisection bandwidth is per direction across the weakest cut
//! that splits the chips in two equal halves.

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::units::BytesPerSec;

/// The shape of a scale-up fabric and its link bandwidths.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", tag = "kind"))]
pub enum Fabric {
    /// Chips in a ring; each neighbour link carries `link` per direction.
    Ring {
        /// Chips on the ring.
        chips: u32,
        /// Per link, per direction.
        link: BytesPerSec,
    },
    /// A k₀ × k₁ × … torus with wraparound; `links[i]` is the per-direction bandwidth of each
    /// link along axis `i` (Trn2-Ultra's Z axis is slower than X and Y).
    Torus {
        /// Chips along each axis.
        dims: Vec<u32>,
        /// Per link, per direction, for each axis.
        links: Vec<BytesPerSec>,
    },
    /// 2^dim chips, each linked to the `dim` chips whose index differs in one bit.
    Hypercube {
        /// Dimensions.
        dim: u32,
        /// Per link, per direction.
        link: BytesPerSec,
    },
    /// Tiers of switches (Trn3's UltraServer): `tiers[0]` chips share a server switch,
    /// `tiers[1]` servers share a rack switch, and `tiers[2]` racks (at most two) are joined by
    /// direct links between chips in the same position. `ports[i]` is each chip's per-direction
    /// bandwidth into tier `i`.
    Tiered {
        /// Group size at each tier, innermost first.
        tiers: Vec<u32>,
        /// Per chip, per direction, at each tier.
        ports: Vec<BytesPerSec>,
    },
    /// Every chip has one port into a non-blocking switch (NVSwitch, NeuronSwitch).
    Switch {
        /// Chips on the switch.
        chips: u32,
        /// Per chip, per direction.
        port: BytesPerSec,
        /// The switch can reduce data in flight (NVLink SHARP / NVLS).
        in_network_reduction: bool,
    },
}

/// Why a fabric is not valid.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TopologyError {
    /// Fewer than two chips.
    TooFewChips(u32),
    /// A torus axis with fewer than 2 chips, or axes and link lists of different lengths.
    BadTorus(String),
    /// A bandwidth that is not positive.
    BadBandwidth(f64),
    /// More chips than the graph algorithms handle here.
    TooLarge(u64),
}

impl fmt::Display for TopologyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewChips(n) => write!(f, "a fabric needs at least 2 chips, got {n}"),
            Self::BadTorus(s) => write!(f, "invalid torus: {s}"),
            Self::BadBandwidth(b) => write!(f, "link bandwidth must be positive, got {b} B/s"),
            Self::TooLarge(n) => write!(f, "{n} chips is more than the {MAX_CHIPS} supported"),
        }
    }
}

impl core::error::Error for TopologyError {}

/// Largest fabric the graph metrics accept.
pub const MAX_CHIPS: u64 = 65_536;

/// A directed link from one chip to a neighbour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Source chip.
    pub from: u32,
    /// Destination chip.
    pub to: u32,
    /// Bandwidth in this direction.
    pub bandwidth: BytesPerSec,
    /// Torus axis or hypercube dimension (0 for rings and switches).
    pub axis: u32,
}

/// Summary figures of a fabric.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// Chips.
    pub chips: u32,
    /// Bidirectional links (chip-to-switch ports for a switch).
    pub links: u32,
    /// Neighbours of each chip (for a switch: all other chips, one hop away).
    pub degree: u32,
    /// Largest hop count between two chips.
    pub diameter: u32,
    /// Mean hop count over all ordered pairs of distinct chips.
    pub mean_hops: f64,
    /// Per direction, across the weakest balanced cut.
    pub bisection: BytesPerSec,
    /// What one chip can send at once into the fabric.
    pub injection: BytesPerSec,
    /// Chips that lose their place in the fabric when one fails (a torus with a hole is
    /// no longer a torus; a switch loses only that chip).
    pub blast_radius: u32,
}

impl Fabric {
    /// Check the fabric's shape and bandwidths.
    ///
    /// # Errors
    /// When a count or bandwidth makes no sense.
    pub fn validate(&self) -> Result<(), TopologyError> {
        let bw_ok = |b: BytesPerSec| {
            if b.is_positive() {
                Ok(())
            } else {
                Err(TopologyError::BadBandwidth(b.get()))
            }
        };
        match self {
            Fabric::Ring { chips, link } => {
                bw_ok(*link)?;
                if *chips < 2 {
                    return Err(TopologyError::TooFewChips(*chips));
                }
            }
            Fabric::Switch { chips, port, .. } => {
                bw_ok(*port)?;
                if *chips < 2 {
                    return Err(TopologyError::TooFewChips(*chips));
                }
            }
            Fabric::Tiered { tiers, ports } => {
                if tiers.is_empty() || tiers.len() != ports.len() || tiers.len() > 3 {
                    return Err(TopologyError::BadTorus(format!(
                        "{} tiers but {} port bandwidths (one to three tiers)",
                        tiers.len(),
                        ports.len()
                    )));
                }
                if tiers.len() == 3 && tiers[2] > 2 {
                    return Err(TopologyError::BadTorus(format!(
                        "{} racks: direct links join at most two",
                        tiers[2]
                    )));
                }
                if let Some(k) = tiers.iter().find(|k| **k < 1) {
                    return Err(TopologyError::BadTorus(format!("a tier of {k}")));
                }
                for b in ports {
                    bw_ok(*b)?;
                }
                let n: u64 = tiers.iter().map(|k| u64::from(*k)).product();
                if n < 2 {
                    return Err(TopologyError::TooFewChips(n as u32));
                }
                if n > MAX_CHIPS {
                    return Err(TopologyError::TooLarge(n));
                }
            }
            Fabric::Hypercube { dim, link } => {
                bw_ok(*link)?;
                if *dim == 0 {
                    return Err(TopologyError::TooFewChips(1));
                }
                if *dim > 16 {
                    return Err(TopologyError::TooLarge(1u64 << (*dim).min(63)));
                }
            }
            Fabric::Torus { dims, links } => {
                if dims.is_empty() || dims.len() != links.len() {
                    return Err(TopologyError::BadTorus(format!(
                        "{} axes but {} link bandwidths",
                        dims.len(),
                        links.len()
                    )));
                }
                if let Some(k) = dims.iter().find(|k| **k < 2) {
                    return Err(TopologyError::BadTorus(format!("an axis of {k} chips")));
                }
                for b in links {
                    bw_ok(*b)?;
                }
                let n: u64 = dims.iter().map(|k| u64::from(*k)).product();
                if n > MAX_CHIPS {
                    return Err(TopologyError::TooLarge(n));
                }
            }
        }
        if u64::from(self.chips()) > MAX_CHIPS {
            return Err(TopologyError::TooLarge(u64::from(self.chips())));
        }
        Ok(())
    }

    /// Number of chips.
    #[must_use]
    pub fn chips(&self) -> u32 {
        match self {
            Fabric::Ring { chips, .. } | Fabric::Switch { chips, .. } => *chips,
            Fabric::Hypercube { dim, .. } => 1 << dim,
            Fabric::Torus { dims, .. } => dims.iter().product(),
            Fabric::Tiered { tiers, .. } => tiers.iter().product(),
        }
    }

    /// For a tiered fabric: (chips per rack, racks, chips per server).
    fn rack_split(tiers: &[u32]) -> (u32, u32, u32) {
        let server = tiers[0];
        let rack = if tiers.len() >= 2 {
            tiers[0] * tiers[1]
        } else {
            tiers[0]
        };
        let racks = if tiers.len() == 3 { tiers[2] } else { 1 };
        (rack, racks, server)
    }

    /// Short description: `4×4×4 torus`, `72-chip switch`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Fabric::Ring { chips, .. } => format!("{chips}-chip ring"),
            Fabric::Torus { dims, .. } => {
                let d: Vec<String> = dims.iter().map(|k| format!("{k}")).collect();
                format!("{} {}D torus", d.join("×"), dims.len())
            }
            Fabric::Hypercube { dim, .. } => format!("{dim}-dimensional hypercube"),
            Fabric::Tiered { tiers, .. } => {
                let (_, racks, server) = Self::rack_split(tiers);
                let per_rack = tiers.get(1).copied().unwrap_or(1);
                format!("{racks} × {per_rack} × {server} switched tiers")
            }
            Fabric::Switch {
                chips,
                in_network_reduction,
                ..
            } => format!(
                "{chips}-chip switch{}",
                if *in_network_reduction {
                    " with in-network reduction"
                } else {
                    ""
                }
            ),
        }
    }

    /// Coordinates of chip `i` in a torus (axis 0 varies fastest).
    #[must_use]
    pub fn coords(dims: &[u32], mut i: u32) -> Vec<u32> {
        dims.iter()
            .map(|k| {
                let c = i % k;
                i /= k;
                c
            })
            .collect()
    }

    /// Index of the chip at `coords` in a torus.
    #[must_use]
    pub fn index(dims: &[u32], coords: &[u32]) -> u32 {
        let mut i = 0;
        for (k, c) in dims.iter().zip(coords).rev() {
            i = i * k + c;
        }
        i
    }

    /// Directed links. A switch is modelled as all chip pairs one hop apart, each pair
    /// sharing the chips' ports (its `bandwidth` is the port bandwidth).
    #[must_use]
    pub fn links(&self) -> Vec<Link> {
        let mut out = Vec::new();
        match self {
            Fabric::Ring { chips, link } => {
                for i in 0..*chips {
                    for j in ring_neighbours(i, *chips) {
                        out.push(Link {
                            from: i,
                            to: j,
                            bandwidth: *link,
                            axis: 0,
                        });
                    }
                }
            }
            Fabric::Torus { dims, links } => {
                for i in 0..self.chips() {
                    let c = Self::coords(dims, i);
                    for (a, k) in dims.iter().enumerate() {
                        for n in ring_neighbours(c[a], *k) {
                            let mut d = c.clone();
                            d[a] = n;
                            out.push(Link {
                                from: i,
                                to: Self::index(dims, &d),
                                bandwidth: links[a],
                                axis: a as u32,
                            });
                        }
                    }
                }
            }
            Fabric::Hypercube { dim, link } => {
                for i in 0..self.chips() {
                    for b in 0..*dim {
                        out.push(Link {
                            from: i,
                            to: i ^ (1 << b),
                            bandwidth: *link,
                            axis: b,
                        });
                    }
                }
            }
            Fabric::Switch { chips, port, .. } => {
                for i in 0..*chips {
                    for j in (0..*chips).filter(|j| *j != i) {
                        out.push(Link {
                            from: i,
                            to: j,
                            bandwidth: *port,
                            axis: 0,
                        });
                    }
                }
            }
            Fabric::Tiered { tiers, ports } => {
                // Chips in one rack reach each other through a switch (the server's when they
                // share a server); a chip reaches its counterpart in the other rack directly.
                let (rack, racks, server) = Self::rack_split(tiers);
                for i in 0..self.chips() {
                    for j in (0..self.chips()).filter(|j| *j != i) {
                        let (axis, bw) = if i / rack == j / rack {
                            if i / server == j / server {
                                (0, ports[0])
                            } else {
                                (1, ports[1.min(ports.len() - 1)])
                            }
                        } else if racks > 1 && i % rack == j % rack {
                            (2, ports[ports.len() - 1])
                        } else {
                            continue;
                        };
                        out.push(Link {
                            from: i,
                            to: j,
                            bandwidth: bw,
                            axis,
                        });
                    }
                }
            }
        }
        out
    }

    /// Neighbour lists, by chip.
    #[must_use]
    pub fn adjacency(&self) -> Vec<Vec<u32>> {
        let mut adj = vec![Vec::new(); self.chips() as usize];
        for l in self.links() {
            adj[l.from as usize].push(l.to);
        }
        adj
    }

    /// Hop counts from `from` to every chip.
    #[must_use]
    pub fn distances(&self, from: u32) -> Vec<u32> {
        match self {
            Fabric::Switch { chips, .. } => (0..*chips).map(|j| u32::from(j != from)).collect(),
            Fabric::Tiered { tiers, .. } => {
                let (rack, _, _) = Self::rack_split(tiers);
                (0..self.chips())
                    .map(|j| {
                        if j == from {
                            0
                        } else if j / rack == from / rack || j % rack == from % rack {
                            1
                        } else {
                            2
                        }
                    })
                    .collect()
            }
            Fabric::Torus { dims, .. } => {
                let c = Self::coords(dims, from);
                (0..self.chips())
                    .map(|j| {
                        let d = Self::coords(dims, j);
                        dims.iter()
                            .zip(c.iter().zip(&d))
                            .map(|(k, (a, b))| ring_distance(*a, *b, *k))
                            .sum()
                    })
                    .collect()
            }
            Fabric::Hypercube { .. } => {
                (0..self.chips()).map(|j| (j ^ from).count_ones()).collect()
            }
            Fabric::Ring { chips, .. } => (0..*chips)
                .map(|j| ring_distance(from, j, *chips))
                .collect(),
        }
    }

    /// Hop counts by breadth-first search over [`Fabric::adjacency`] (checks the closed forms).
    #[must_use]
    pub fn distances_bfs(&self, from: u32) -> Vec<u32> {
        let adj = self.adjacency();
        let mut d = vec![u32::MAX; adj.len()];
        let mut q = VecDeque::new();
        d[from as usize] = 0;
        q.push_back(from);
        while let Some(u) = q.pop_front() {
            for &v in &adj[u as usize] {
                if d[v as usize] == u32::MAX {
                    d[v as usize] = d[u as usize] + 1;
                    q.push_back(v);
                }
            }
        }
        d
    }

    /// Total bandwidth one chip can push into the fabric at once, per direction.
    #[must_use]
    pub fn injection(&self) -> BytesPerSec {
        match self {
            Fabric::Ring { chips, link } => *link * ring_neighbours(0, *chips).len() as f64,
            Fabric::Torus { dims, links } => dims
                .iter()
                .zip(links)
                .fold(BytesPerSec::new(0.0), |a, (k, b)| {
                    a + *b * ring_neighbours(0, *k).len() as f64
                }),
            Fabric::Hypercube { dim, link } => *link * f64::from(*dim),
            Fabric::Switch { port, .. } => *port,
            Fabric::Tiered { ports, .. } => ports.iter().fold(BytesPerSec::new(0.0), |a, b| a + *b),
        }
    }

    /// Per-direction bandwidth across the weakest balanced cut (closed forms; tests check
    /// them against an exhaustive search on small fabrics).
    #[must_use]
    pub fn bisection(&self) -> BytesPerSec {
        match self {
            Fabric::Ring { chips, link } => *link * if *chips > 2 { 2.0 } else { 1.0 },
            Fabric::Hypercube { dim, link } => *link * f64::from(1u32 << (dim - 1)),
            Fabric::Switch { chips, port, .. } => *port * f64::from(chips / 2),
            Fabric::Tiered { tiers, ports } => {
                // Two racks: the cut between them carries each chip's direct links. One rack:
                // half its chips through the rack switch.
                let _ = tiers;
                ports[ports.len() - 1] * f64::from(self.chips() / 2)
            }
            Fabric::Torus { dims, links } => {
                let n = f64::from(self.chips());
                dims.iter()
                    .zip(links)
                    .filter(|(k, _)| *k % 2 == 0)
                    .map(|(k, b)| {
                        let per_ring = if *k > 2 { 2.0 } else { 1.0 };
                        *b * (n / f64::from(*k) * per_ring)
                    })
                    .fold(None, |m: Option<BytesPerSec>, x| {
                        Some(m.map_or(x, |m| if x < m { x } else { m }))
                    })
                    // All axes odd: the cut is uneven; report the smallest axis cut anyway.
                    .unwrap_or_else(|| {
                        dims.iter()
                            .zip(links)
                            .map(|(k, b)| *b * (n / f64::from(*k) * 2.0))
                            .fold(
                                BytesPerSec::new(f64::INFINITY),
                                |m, x| if x < m { x } else { m },
                            )
                    })
            }
        }
    }

    /// The figures of [`Metrics`].
    ///
    /// # Errors
    /// When the fabric is not valid.
    pub fn metrics(&self) -> Result<Metrics, TopologyError> {
        self.validate()?;
        let n = self.chips();
        let links = match self {
            Fabric::Switch { chips, .. } => *chips,
            // Ports into each switch tier, plus the direct links between racks.
            Fabric::Tiered { tiers, .. } => {
                let (_, racks, _) = Self::rack_split(tiers);
                let switched = tiers.len().min(2) as u32;
                n * switched + if racks > 1 { n / 2 } else { 0 }
            }
            _ => (self.links().len() / 2) as u32,
        };
        // Every fabric here is vertex-transitive: distances from chip 0 stand for all.
        let d = self.distances(0);
        let diameter = d.iter().copied().max().unwrap_or(0);
        let mean_hops = f64::from(d.iter().sum::<u32>()) / f64::from(n - 1);
        let degree = match self {
            Fabric::Switch { chips, .. } => chips - 1,
            _ => self.adjacency()[0].len() as u32,
        };
        let blast_radius = match self {
            Fabric::Switch { .. } | Fabric::Tiered { .. } => 1,
            _ => n,
        };
        Ok(Metrics {
            chips: n,
            links,
            degree,
            diameter,
            mean_hops,
            bisection: self.bisection(),
            injection: self.injection(),
            blast_radius,
        })
    }
}

/// Neighbours of position `i` on a ring of `k`: none for k = 1, one for k = 2, else two.
fn ring_neighbours(i: u32, k: u32) -> Vec<u32> {
    match k {
        0 | 1 => Vec::new(),
        2 => vec![1 - i],
        _ => vec![(i + 1) % k, (i + k - 1) % k],
    }
}

fn ring_distance(a: u32, b: u32, k: u32) -> u32 {
    let d = a.abs_diff(b);
    d.min(k - d)
}

/// True when two graphs (as neighbour lists) are isomorphic. Backtracking with degree and
/// distance-profile refinement; meant for the small fabrics of the tests and the app.
#[must_use]
pub fn isomorphic(a: &[Vec<u32>], b: &[Vec<u32>]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let edges = |g: &[Vec<u32>]| {
        let mut m = vec![vec![false; n]; n];
        for (u, ns) in g.iter().enumerate() {
            for &v in ns {
                if v as usize >= n {
                    return None;
                }
                m[u][v as usize] = true;
            }
        }
        Some(m)
    };
    let (Some(ea), Some(eb)) = (edges(a), edges(b)) else {
        return false;
    };
    // Invariant per vertex: sorted hop-count profile (counts of vertices at each distance).
    let profile = |g: &[Vec<u32>], s: usize| {
        let mut d = vec![usize::MAX; n];
        let mut q = VecDeque::new();
        d[s] = 0;
        q.push_back(s);
        while let Some(u) = q.pop_front() {
            for &v in &g[u] {
                if d[v as usize] == usize::MAX {
                    d[v as usize] = d[u] + 1;
                    q.push_back(v as usize);
                }
            }
        }
        let mut counts = vec![0usize; n + 1];
        for x in d {
            counts[x.min(n)] += 1;
        }
        counts
    };
    let pa: Vec<Vec<usize>> = (0..n).map(|v| profile(a, v)).collect();
    let pb: Vec<Vec<usize>> = (0..n).map(|v| profile(b, v)).collect();
    let mut sa = pa.clone();
    let mut sb = pb.clone();
    sa.sort();
    sb.sort();
    if sa != sb {
        return false;
    }
    let mut map = vec![usize::MAX; n];
    let mut used = vec![false; n];
    fn extend(
        u: usize,
        map: &mut Vec<usize>,
        used: &mut Vec<bool>,
        ea: &[Vec<bool>],
        eb: &[Vec<bool>],
        pa: &[Vec<usize>],
        pb: &[Vec<usize>],
    ) -> bool {
        let n = map.len();
        if u == n {
            return true;
        }
        for v in 0..n {
            if used[v] || pa[u] != pb[v] {
                continue;
            }
            if (0..u).all(|w| ea[u][w] == eb[v][map[w]] && ea[w][u] == eb[map[w]][v]) {
                map[u] = v;
                used[v] = true;
                if extend(u + 1, map, used, ea, eb, pa, pb) {
                    return true;
                }
                used[v] = false;
            }
        }
        false
    }
    extend(0, &mut map, &mut used, &ea, &eb, &pa, &pb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    const GBS: f64 = 1e9;

    fn torus(dims: &[u32], gbs: &[f64]) -> Fabric {
        Fabric::Torus {
            dims: dims.to_vec(),
            links: gbs.iter().map(|g| BytesPerSec::new(g * GBS)).collect(),
        }
    }

    #[test]
    fn hypercube_2x2x2x2_is_isomorphic_to_the_4x4_torus() {
        let t = torus(&[4, 4], &[1.0, 1.0]);
        let h = Fabric::Hypercube {
            dim: 4,
            link: BytesPerSec::new(GBS),
        };
        assert!(isomorphic(&t.adjacency(), &h.adjacency()));
        // A real check, not a count: a 16-ring and a 2×8 torus have other shapes.
        let ring = Fabric::Ring {
            chips: 16,
            link: BytesPerSec::new(GBS),
        };
        assert!(!isomorphic(&t.adjacency(), &ring.adjacency()));
        let t28 = torus(&[2, 8], &[1.0, 1.0]);
        assert!(!isomorphic(&t.adjacency(), &t28.adjacency()));
        // A 2-ring is one link, so 2×2×4 is K2×K2×C4 = C4×C4: the same graph again.
        let t224 = torus(&[2, 2, 4], &[1.0, 1.0, 1.0]);
        assert_eq!(t224.adjacency()[0].len(), 4);
        assert!(
            isomorphic(&t.adjacency(), &t224.adjacency()),
            "C4 = K2×K2, so 2×2×4 ≅ 4×4"
        );
        // Both 3-regular on 8 vertices, with equal edge counts: the cube and the Wagner graph.
        let cube = Fabric::Hypercube {
            dim: 3,
            link: BytesPerSec::new(GBS),
        }
        .adjacency();
        let mut twisted = Fabric::Ring {
            chips: 8,
            link: BytesPerSec::new(GBS),
        }
        .adjacency();
        for i in 0..8u32 {
            twisted[i as usize].push((i + 4) % 8);
        }
        assert!(!isomorphic(&cube, &twisted), "Wagner graph is not the cube");
    }

    #[test]
    fn closed_form_distances_match_bfs() {
        for f in [
            torus(&[4, 4], &[1.0, 1.0]),
            torus(&[4, 4, 4], &[2.0, 2.0, 1.0]),
            torus(&[2, 3, 5], &[1.0, 1.0, 1.0]),
            Fabric::Hypercube {
                dim: 5,
                link: BytesPerSec::new(GBS),
            },
            Fabric::Ring {
                chips: 7,
                link: BytesPerSec::new(GBS),
            },
            Fabric::Switch {
                chips: 8,
                port: BytesPerSec::new(GBS),
                in_network_reduction: false,
            },
        ] {
            for s in [0, 1, f.chips() - 1] {
                assert_eq!(f.distances(s), f.distances_bfs(s), "{}", f.describe());
            }
        }
    }

    /// Minimum balanced cut by exhaustive search (small fabrics only).
    fn brute_bisection(f: &Fabric) -> f64 {
        let n = f.chips() as usize;
        let links = f.links();
        let mut best = f64::INFINITY;
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize != n / 2 || mask & 1 == 0 {
                continue;
            }
            let cut: f64 = links
                .iter()
                .filter(|l| (mask >> l.from) & 1 == 1 && (mask >> l.to) & 1 == 0)
                .map(|l| l.bandwidth.get())
                .sum();
            best = best.min(cut);
        }
        best
    }

    #[test]
    fn bisection_closed_forms_match_exhaustive_search() {
        for f in [
            torus(&[4, 4], &[1.0, 1.0]),
            torus(&[2, 8], &[3.0, 1.0]),
            torus(&[4, 2, 2], &[1.0, 2.0, 2.0]),
            Fabric::Hypercube {
                dim: 4,
                link: BytesPerSec::new(GBS),
            },
            Fabric::Ring {
                chips: 12,
                link: BytesPerSec::new(GBS),
            },
        ] {
            let want = brute_bisection(&f);
            let got = f.bisection().get();
            assert!(
                (got - want).abs() < 1.0,
                "{}: {got} vs {want}",
                f.describe()
            );
        }
    }

    /// `counts` = (chips, links, degree, diameter); `gbs` = (bisection, injection) in GB/s.
    fn check(f: &Fabric, counts: (u32, u32, u32, u32), mean: f64, gbs: (f64, f64)) {
        let (chips, links, degree, diameter) = counts;
        let (bisection_gbs, injection_gbs) = gbs;
        let m = f.metrics().unwrap();
        let what = f.describe();
        assert_eq!(
            (m.chips, m.links, m.degree, m.diameter),
            (chips, links, degree, diameter),
            "{what}"
        );
        assert!(
            (m.mean_hops - mean).abs() < 1e-9,
            "{what}: mean {}",
            m.mean_hops
        );
        assert!(
            (m.bisection.get() / GBS - bisection_gbs).abs() < 1e-6,
            "{what}: bisection {}",
            m.bisection
        );
        assert!(
            (m.injection.get() / GBS - injection_gbs).abs() < 1e-6,
            "{what}: injection {}",
            m.injection
        );
    }

    #[test]
    fn metrics_of_the_systems_fabrics() {
        // Trn2: 4×4 torus, 128 GB/s per neighbour per direction (AWS Neuron Trn2 page: 1,024 GB/s
        // bidirectional per chip inside the instance = 4 × 128 × 2).
        check(
            &torus(&[4, 4], &[128.0, 128.0]),
            (16, 32, 4, 4),
            32.0 / 15.0,
            (1024.0, 512.0),
        );
        // Trn2-Ultra: 4×4×4 with Z at 64 GB/s: the weakest cut is across Z.
        check(
            &torus(&[4, 4, 4], &[128.0, 128.0, 64.0]),
            (64, 192, 6, 6),
            192.0 / 63.0,
            (2048.0, 640.0),
        );
        // SemiAnalysis's Trn2-Ultra-256 concept (Trainium2 article, BRIEF-T2): 4×4×16 with the
        // long axis at 64 GB/s.
        let m = torus(&[4, 4, 16], &[128.0, 128.0, 64.0]).metrics().unwrap();
        assert_eq!((m.chips, m.diameter), (256, 12));
        assert_eq!(m.bisection.get() / GBS, 2048.0);
        // NVL72: one switch hop between any two GPUs, 900 GB/s per direction per GPU.
        check(
            &Fabric::Switch {
                chips: 72,
                port: BytesPerSec::new(900.0 * GBS),
                in_network_reduction: true,
            },
            (72, 72, 71, 1),
            1.0,
            (36.0 * 900.0, 900.0),
        );
        let m = Fabric::Switch {
            chips: 72,
            port: BytesPerSec::new(GBS),
            in_network_reduction: false,
        }
        .metrics()
        .unwrap();
        assert_eq!(m.blast_radius, 1);
        assert_eq!(
            torus(&[4, 4], &[1.0, 1.0]).metrics().unwrap().blast_radius,
            16
        );
    }

    #[test]
    fn invalid_fabrics_say_why() {
        let e = |f: Fabric| f.metrics().unwrap_err().to_string();
        assert!(e(torus(&[4, 1], &[1.0, 1.0])).contains("axis of 1"));
        assert!(e(torus(&[4, 4], &[1.0])).contains("2 axes but 1"));
        assert!(e(torus(&[4, 4], &[1.0, -1.0])).contains("positive"));
        assert!(e(Fabric::Ring {
            chips: 1,
            link: BytesPerSec::new(1.0)
        })
        .contains("at least 2"));
        assert!(e(torus(&[512, 512], &[1.0, 1.0])).contains("supported"));
    }
}
