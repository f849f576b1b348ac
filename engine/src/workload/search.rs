//! The layout search: every tensor, pipeline and expert degree that fits, in slices.

use alloc::format;
use alloc::vec::Vec;

use crate::chip::Chip;
use crate::system::Cluster;

use super::train::{train, train_in, CommMemo};
use super::{Layout, TrainConfig, TrainReport, WorkloadError};

/// A search over training layouts that can run in slices (so a page can show progress and
/// stay responsive): tensor degrees that are powers of two dividing the scale-up domain,
/// pipeline depths up to the layer count (uneven stages allowed), expert-parallel degrees
/// for MoE models, and recomputation on or off; then sharding and context parallelism where
/// memory stood in the way, and, where `base` chooses it, the micro-batch. `base.layout`
/// supplies the micro-batch otherwise.
#[derive(Clone, Debug)]
pub struct LayoutSearch {
    cluster: Cluster,
    chip: Chip,
    base: TrainConfig,
    candidates: Vec<Layout>,
    /// The candidates' keys, sorted: each later round adds only layouts not yet tried, and a
    /// search of thousands of candidates must not compare each new one with every one before.
    seen: Vec<Key>,
    next: usize,
    fits: Vec<TrainReport>,
    rejected: Vec<(Layout, WorkloadError)>,
    memo: CommMemo,
    /// Whether the second round (ZeRO-2/3 and context parallelism) is still to be added.
    widen: bool,
    /// Whether the third round (larger micro-batches) is still to be added.
    refine: bool,
}

impl LayoutSearch {
    /// Enumerate the candidate layouts of `cluster`.
    #[must_use]
    pub fn new(cluster: &Cluster, chip: &Chip, base: &TrainConfig) -> Self {
        let chips = cluster.chips();
        let domain = cluster.system.chips();
        let m = &base.model;
        let mut candidates = Vec::new();
        let mut tp = 1;
        while tp <= domain {
            if domain % tp == 0 && chips % tp == 0 {
                for pp in (1..=m.layers.min(64)).filter(|p| chips % (tp * p) == 0) {
                    let dp = chips / (tp * pp);
                    let mut ep = 1;
                    while ep <= dp && (ep == 1 || (m.experts > 0 && m.experts % ep == 0)) {
                        if dp % ep == 0 {
                            for interleave in [1, 2, 4] {
                                if interleave > 1 && (pp == 1 || pp * interleave > m.layers) {
                                    continue;
                                }
                                for recompute in [false, true] {
                                    candidates.push(Layout {
                                        tp,
                                        pp,
                                        dp,
                                        ep,
                                        interleave,
                                        recompute,
                                        ..base.layout
                                    });
                                }
                            }
                        }
                        if m.experts == 0 {
                            break;
                        }
                        ep *= 2;
                    }
                }
            }
            tp *= 2;
        }
        Self {
            cluster: cluster.clone(),
            chip: chip.clone(),
            base: base.clone(),
            seen: {
                let mut k: Vec<Key> = candidates.iter().map(key).collect();
                k.sort_unstable();
                k
            },
            candidates,
            next: 0,
            fits: Vec::new(),
            rejected: Vec::new(),
            memo: CommMemo::default(),
            widen: base.pipeline_sends,
            refine: base.choose_micro_batch,
        }
    }

    /// The third round, where the micro-batch is chosen: every larger micro-batch of
    /// [`super::micro_batch_options`] on the fastest layouts that fit, and on the fastest
    /// that shard their weights (ZeRO-2/3, whose gathers a larger micro-batch makes fewer).
    fn refine(&mut self) {
        self.refine = false;
        let mut fastest: Vec<&TrainReport> = self.fits.iter().collect();
        fastest.sort_by(|a, b| b.tokens_per_s.total_cmp(&a.tokens_per_s));
        let mut seeds: Vec<Layout> = fastest.iter().take(8).map(|r| r.layout).collect();
        seeds.extend(
            fastest
                .iter()
                .filter(|r| r.layout.zero >= 2)
                .take(4)
                .map(|r| r.layout),
        );
        for l in seeds {
            for b in super::micro_batch_options(self.base.global_batch, &l) {
                let c = Layout {
                    micro_batch: b,
                    ..l
                };
                let off = self.base.offloaded(&c);
                for c in [Some(c), off].into_iter().flatten() {
                    if c.micro_batch > l.micro_batch {
                        self.add(c);
                    }
                }
            }
        }
    }

    /// Adds `c` to the candidates unless it is one already.
    fn add(&mut self, c: Layout) {
        let k = key(&c);
        if let Err(at) = self.seen.binary_search(&k) {
            self.seen.insert(at, k);
            self.candidates.push(c);
        }
    }

    /// The second round: what sharding (ZeRO-2, ZeRO-3/FSDP, FSDP hybrid-sharded within
    /// each scale-up domain) and context parallelism buy,
    /// tried where memory was the obstacle: on every layout that did not fit, and on the
    /// fastest that did, without full recomputation. Links of version 2 and earlier search
    /// the first round only, as they did.
    fn widen(&mut self) {
        self.widen = false;
        let m = &self.base.model;
        let mut seeds: Vec<Layout> = self
            .rejected
            .iter()
            .filter(|(_, e)| matches!(e, WorkloadError::DoesNotFit { .. }))
            .map(|(l, _)| *l)
            .collect();
        let mut fastest: Vec<&TrainReport> = self.fits.iter().collect();
        fastest.sort_by(|a, b| b.tokens_per_s.total_cmp(&a.tokens_per_s));
        seeds.extend(fastest.iter().take(8).map(|r| Layout {
            recompute: false,
            ..r.layout
        }));
        let mut extra: Vec<Layout> = Vec::new();
        // Where memory stood in the way, layer inputs offloaded to host memory (with
        // recomputation, alone or with the weights sharded), where the job allows it.
        for (l, e) in &self.rejected {
            if !matches!(e, WorkloadError::DoesNotFit { .. }) {
                continue;
            }
            for zero in [l.zero, 3] {
                let with = Layout {
                    recompute: true,
                    zero,
                    ..*l
                };
                extra.extend(self.base.offloaded(&with));
            }
        }
        for l in seeds {
            for (zero, cp) in [(2, 1), (3, 1), (1, 2), (1, 4), (3, 2)] {
                if cp > 1 && (l.dp % cp != 0 || m.seq % (2 * cp) != 0 || (l.dp / cp) % l.ep != 0) {
                    continue;
                }
                let c = Layout {
                    zero,
                    cp,
                    dp: l.dp / cp,
                    ..l
                };
                // FSDP sharded within each scale-up domain and replicated across them
                // (hybrid sharding), where the ranks span several domains.
                let hybrid = (zero == 3 && self.base.dp_as_run)
                    .then(|| {
                        let domain = self.cluster.system.chips() / (l.tp * l.pp).max(1);
                        let ranks = c.dp * c.cp;
                        (domain > 0 && ranks > domain && ranks % domain == 0).then(|| Layout {
                            replicate: ranks / domain,
                            ..c
                        })
                    })
                    .flatten();
                extra.extend([Some(c), hybrid].into_iter().flatten());
            }
        }
        for c in extra {
            self.add(c);
        }
    }

    /// Candidate layouts in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.candidates.len()
    }

    /// Candidates evaluated so far.
    #[must_use]
    pub fn tried(&self) -> usize {
        self.next
    }

    /// Whether every candidate has been evaluated (the second round included).
    #[must_use]
    pub fn done(&self) -> bool {
        self.next >= self.candidates.len() && !self.widen && !self.refine
    }

    /// Evaluate up to `n` more candidates; returns whether the search is done.
    pub fn step(&mut self, n: usize) -> bool {
        if self.next >= self.candidates.len() && self.widen {
            self.widen();
        } else if self.next >= self.candidates.len() && self.refine {
            self.refine();
        }
        let end = self.next.saturating_add(n).min(self.candidates.len());
        let mut cfg = self.base.clone();
        // Room for every candidate of the slice: a report is large, and growing the list
        // copies every one before.
        self.fits.reserve(end - self.next);
        for i in self.next..end {
            let l = self.candidates[i];
            cfg.layout = l;
            match train_in(&self.cluster, &self.chip, &cfg, &mut self.memo, false) {
                Ok(r) => self.fits.push(r),
                Err(e) => self.rejected.push((l, e)),
            }
        }
        self.next = end;
        self.done()
    }

    /// The layouts that fit so far, fastest first, at most `k`.
    #[must_use]
    pub fn ranked(&self, k: usize) -> Vec<&TrainReport> {
        let mut v: Vec<&TrainReport> = self.fits.iter().collect();
        v.sort_by(|a, b| b.tokens_per_s.total_cmp(&a.tokens_per_s));
        v.truncate(k);
        v
    }

    /// The layouts that did not work and why.
    #[must_use]
    pub fn rejected(&self) -> &[(Layout, WorkloadError)] {
        &self.rejected
    }

    /// Run to the end and return the fastest layout, its formula prefixed with the layout.
    ///
    /// # Errors
    /// The last reason a layout failed when none fits.
    pub fn finish(mut self) -> Result<TrainReport, WorkloadError> {
        while !self.step(usize::MAX) {}
        let chips = self.cluster.chips();
        let best = self.fits.into_iter().reduce(|a, b| {
            if b.tokens_per_s > a.tokens_per_s {
                b
            } else {
                a
            }
        });
        match best {
            Some(r) => {
                // Only the winner's formula is written out.
                let mut cfg = self.base.clone();
                cfg.layout = r.layout;
                let r = train(&self.cluster, &self.chip, &cfg)?;
                Ok(TrainReport {
                    formula: format!("{}: {}", r.layout, r.formula),
                    ..r
                })
            }
            None => Err(match self.rejected.pop() {
                Some((_, WorkloadError::BadLayout(why))) => WorkloadError::BadLayout(format!(
                    "no layout of {chips} chips fits; the last one tried failed because {why} (try another node count or global batch)"
                )),
                Some((_, other)) => other,
                None => WorkloadError::BadLayout(format!("no layout divides {chips} chips")),
            }),
        }
    }
}

/// A layout's fields, in an order that sorts.
type Key = (u32, u32, u32, u32, u32, u32, u8, bool, u32, bool, u32);

fn key(l: &Layout) -> Key {
    (
        l.tp,
        l.pp,
        l.dp,
        l.ep,
        l.micro_batch,
        l.interleave,
        l.zero,
        l.recompute,
        l.cp,
        l.offload,
        l.replicate,
    )
}

/// The fastest training layout that fits, searched at once.
///
/// # Errors
/// The last reason a layout failed when none fits.
pub fn best_layout(
    cluster: &Cluster,
    chip: &Chip,
    base: &TrainConfig,
) -> Result<TrainReport, WorkloadError> {
    LayoutSearch::new(cluster, chip, base).finish()
}
