//! The simulator: a schedule run engine by engine and queue by queue, DMA shared among its
//! flows, into a timeline with every stall named.

use super::*;

pub(crate) fn bytes(op: &Op) -> f64 {
    match *op {
        Op::Load { rows, row_bytes } | Op::Store { rows, row_bytes } => {
            f64::from(rows) * f64::from(row_bytes)
        }
        _ => 0.0,
    }
}

/// One engine's or queue's share of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitRun {
    /// Which.
    pub unit: Unit,
    /// Instructions it ran.
    pub count: u32,
    /// Seconds busy (for a DMA queue: moving data).
    pub busy: f64,
    /// Seconds idle before an instruction, by [`Stall::ALL`].
    pub stalls: [f64; 4],
}

/// What a schedule did.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Wall time of the schedule.
    pub seconds: f64,
    /// Start and end of each instruction (for a DMA, of its data), seconds.
    pub spans: Vec<(f64, f64)>,
    /// Each lane, engines first.
    pub units: Vec<UnitRun>,
    /// Useful FLOP.
    pub flops: f64,
    /// Bytes read from and written to HBM.
    pub hbm_bytes: f64,
    /// SBUF and PSUM bytes per partition live at the worst moment.
    pub peak: [u32; 2],
    /// SBUF and PSUM bytes per partition the schedule's pools reserve.
    pub reserved: [u32; 2],
    /// The core's SBUF and PSUM bytes per partition.
    pub capacity: [u32; 2],
    /// Tensor-engine cycles of the matmuls and transposes.
    pub tensor_cycles: f64,
    /// Multiply-accumulates the array did, counting every PE of every cycle busy
    /// (`rows used × columns used × moving columns`).
    pub macs_used: f64,
}

impl Run {
    /// FLOP/s achieved.
    #[must_use]
    pub fn flops_per_s(&self) -> f64 {
        if self.seconds > 0.0 {
            self.flops / self.seconds
        } else {
            0.0
        }
    }

    /// HBM bytes/s achieved.
    #[must_use]
    pub fn dma_bw(&self) -> f64 {
        if self.seconds > 0.0 {
            self.hbm_bytes / self.seconds
        } else {
            0.0
        }
    }

    /// Busy fraction of lane `i`.
    #[must_use]
    pub fn busy(&self, i: usize) -> f64 {
        self.units.get(i).map_or(0.0, |u| {
            if self.seconds > 0.0 {
                u.busy / self.seconds
            } else {
                0.0
            }
        })
    }

    /// Arithmetic intensity achieved: useful FLOP per HBM byte.
    #[must_use]
    pub fn intensity(&self) -> f64 {
        self.flops / self.hbm_bytes.max(1.0)
    }

    /// Fraction of the array's PEs doing useful work while the tensor engine is busy
    /// (a K of 100 uses 100 of 128 rows).
    #[must_use]
    pub fn array_use(&self, core: &Core, rows_per_instr: u32) -> f64 {
        let full = self.tensor_cycles * f64::from(rows_per_instr) * f64::from(core.array);
        if full > 0.0 {
            self.macs_used / full
        } else {
            0.0
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Flow {
    instr: u32,
    left: f64,
    cap: f64,
    rate: f64,
}

/// Run `s` as an event simulation.
///
/// Each engine and queue runs its instructions in program order; an instruction starts when
/// its engine is free and everything it waits for has ended. A DMA's data moves no sooner
/// than its setup latency after its inputs are ready, and after its queue's previous
/// transfer; transfers in flight share the core's DMA ceiling max-min fairly, each capped by
/// the engines its partitions use.
#[must_use]
pub fn simulate(s: &Schedule) -> Run {
    let core = &s.core;
    let n = s.instrs.len();
    let lanes = 4 + usize::from(s.queues);
    let mut queue: Vec<Vec<u32>> = vec![Vec::new(); lanes];
    for (i, ins) in s.instrs.iter().enumerate() {
        if let Some(q) = queue.get_mut(ins.unit.lane()) {
            q.push(i as u32);
        }
    }
    let mut head = vec![0usize; lanes];
    let mut spans = vec![(f64::INFINITY, f64::INFINITY); n];
    let mut free_at = vec![0.0f64; lanes];
    let mut pending: Vec<Option<f64>> = vec![None; lanes];
    let mut flows: Vec<Flow> = Vec::new();
    let mut units: Vec<UnitRun> = (0..lanes)
        .map(|i| UnitRun {
            unit: Unit::of_lane(i),
            count: 0,
            busy: 0.0,
            stalls: [0.0; 4],
        })
        .collect();
    let ceiling = core.dma_ceiling();
    let mut now = 0.0f64;
    let mut reshare = false;
    let mut hbm_bytes = 0.0;
    let mut tensor_cycles = 0.0;
    let mut macs_used = 0.0;
    const EPS: f64 = 1e-15;

    // Ready time of instruction `i` (latest end of its waits) and the wait that bound it.
    let ready = |i: usize, spans: &[(f64, f64)]| -> (f64, Option<Dep>) {
        let mut t = 0.0;
        let mut why = None;
        for d in &s.instrs[i].deps {
            let e = spans[d.on as usize].1;
            if why.is_none() || e > t {
                t = e;
                why = Some(*d);
            }
        }
        (t, why)
    };
    let reason = |d: Option<Dep>| -> usize {
        match d {
            Some(Dep { slot: true, .. }) => 2,
            Some(Dep { on, .. }) if s.instrs[on as usize].unit.is_dma() => 0,
            _ => 1,
        }
    };

    loop {
        // Start everything that can start now.
        let mut started = true;
        while started {
            started = false;
            for lane in 0..lanes {
                let Some(&i) = queue[lane].get(head[lane]) else {
                    continue;
                };
                let i = i as usize;
                let ins = &s.instrs[i];
                if ins.unit.is_dma() {
                    if pending[lane].is_some()
                        || flows
                            .iter()
                            .any(|f| s.instrs[f.instr as usize].unit == ins.unit)
                    {
                        continue;
                    }
                    let (t, why) = ready(i, &spans);
                    if t > now + EPS {
                        continue;
                    }
                    let go = (t + core.dma_latency).max(free_at[lane]);
                    let gap = go - free_at[lane];
                    if gap > 0.0 {
                        let setup = gap.min(core.dma_latency);
                        units[lane].stalls[3] += setup;
                        units[lane].stalls[reason(why)] += gap - setup;
                    }
                    pending[lane] = Some(go);
                    started = true;
                } else {
                    if free_at[lane] > now + EPS {
                        continue;
                    }
                    let (t, why) = ready(i, &spans);
                    if t > now + EPS {
                        continue;
                    }
                    let start = now.max(t);
                    let gap = start - free_at[lane];
                    if gap > EPS {
                        units[lane].stalls[reason(why)] += gap;
                    }
                    let dur = core.seconds(ins.unit, &ins.op);
                    spans[i] = (start, start + dur);
                    free_at[lane] = start + dur;
                    units[lane].busy += dur;
                    units[lane].count += 1;
                    head[lane] += 1;
                    match ins.op {
                        Op::Matmul { k, cols, n, .. } => {
                            tensor_cycles += f64::from(core.cycles(ins.unit, &ins.op));
                            macs_used += f64::from(k) * f64::from(cols) * f64::from(n);
                        }
                        Op::Transpose { .. } => {
                            tensor_cycles += f64::from(core.cycles(ins.unit, &ins.op));
                        }
                        _ => {}
                    }
                    started = true;
                }
            }
            // DMA transfers whose data may move now.
            for lane in 4..lanes {
                if let Some(go) = pending[lane] {
                    if go <= now + EPS {
                        pending[lane] = None;
                        let i = queue[lane][head[lane]] as usize;
                        let ins = &s.instrs[i];
                        spans[i].0 = now;
                        flows.push(Flow {
                            instr: i as u32,
                            left: bytes(&ins.op),
                            cap: core.dma_cap(&ins.op),
                            rate: 0.0,
                        });
                        hbm_bytes += bytes(&ins.op);
                        units[lane].count += 1;
                        head[lane] += 1;
                        started = true;
                        reshare = true;
                    }
                }
            }
        }
        // Rates change only when a transfer starts or ends.
        if reshare {
            share(&mut flows, ceiling);
            reshare = false;
        }
        // The next event.
        let mut next = f64::INFINITY;
        for &t in &free_at[..4] {
            if t > now + EPS {
                next = next.min(t);
            }
        }
        for p in pending.iter().flatten() {
            next = next.min(*p);
        }
        for f in &flows {
            if f.rate > 0.0 {
                next = next.min(now + f.left / f.rate);
            }
        }
        if !next.is_finite() {
            break;
        }
        let dt = next - now;
        for f in &mut flows {
            f.left -= f.rate * dt;
        }
        now = next;
        let mut k = 0;
        while k < flows.len() {
            if flows[k].left <= flows[k].cap * 1e-12 + 1e-6 {
                let f = flows.swap_remove(k);
                let i = f.instr as usize;
                spans[i].1 = now;
                let lane = s.instrs[i].unit.lane();
                units[lane].busy += now - spans[i].0;
                free_at[lane] = now;
                reshare = true;
            } else {
                k += 1;
            }
        }
    }
    // Memory high-water: replay allocations and releases in time order.
    let mut ev: Vec<(f64, i64, i64)> = Vec::with_capacity(2 * n);
    for (i, ins) in s.instrs.iter().enumerate() {
        let (a, b) = spans[i];
        if ins.alloc != [0; 2] {
            ev.push((a, i64::from(ins.alloc[0]), i64::from(ins.alloc[1])));
        }
        if ins.free != [0; 2] {
            ev.push((b, -i64::from(ins.free[0]), -i64::from(ins.free[1])));
        }
    }
    // Releases before allocations at the same instant.
    ev.sort_by(|x, y| {
        x.0.partial_cmp(&y.0)
            .unwrap_or(core::cmp::Ordering::Equal)
            .then((x.1 + x.2).cmp(&(y.1 + y.2)))
    });
    let mut live = [0i64; 2];
    let mut peak = [0u32; 2];
    for (_, a, b) in ev {
        live[0] += a;
        live[1] += b;
        for m in 0..2 {
            peak[m] = peak[m].max(u32::try_from(live[m].max(0)).unwrap_or(u32::MAX));
        }
    }
    let seconds = spans
        .iter()
        .map(|x| x.1)
        .filter(|t| t.is_finite())
        .fold(0.0, f64::max);
    let mut reserved = [0u32; 2];
    for p in &s.pools {
        let m = usize::from(p.mem == Mem::Psum);
        reserved[m] = reserved[m].saturating_add(p.bytes.saturating_mul(p.bufs));
    }
    Run {
        seconds,
        spans,
        units,
        flops: s.flops,
        hbm_bytes,
        peak,
        reserved,
        capacity: [core.sbuf_bytes, core.psum_bytes],
        tensor_cycles,
        macs_used,
    }
}

/// Max-min fair shares of `ceiling` among `flows`, each capped.
pub(crate) fn share(flows: &mut [Flow], ceiling: f64) {
    let mut order: Vec<usize> = (0..flows.len()).collect();
    order.sort_by(|&a, &b| {
        flows[a]
            .cap
            .partial_cmp(&flows[b].cap)
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let mut left = ceiling;
    let mut count = flows.len();
    for i in order {
        let fair = left / count as f64;
        let r = flows[i].cap.min(fair);
        flows[i].rate = r;
        left -= r;
        count -= 1;
    }
}

/// Ring of buffers in a pool: which instruction last read each buffer, so the next writer of
/// that buffer waits for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ring {
    bufs: usize,
    next: usize,
    last_reader: Vec<Option<u32>>,
}

impl Ring {
    pub(crate) fn new(bufs: u32) -> Ring {
        Ring {
            bufs: bufs.max(1) as usize,
            next: 0,
            last_reader: vec![None; bufs.max(1) as usize],
        }
    }

    /// Take the next buffer: the wait on its previous readers, if any, and its index.
    pub(crate) fn take(&mut self) -> (Option<Dep>, usize) {
        let b = self.next;
        self.next = (self.next + 1) % self.bufs;
        (
            self.last_reader[b].take().map(|on| Dep { on, slot: true }),
            b,
        )
    }

    /// Record that instruction `i` reads buffer `b`.
    pub(crate) fn read(&mut self, b: usize, i: u32) {
        if let Some(r) = self.last_reader.get_mut(b) {
            *r = Some(r.map_or(i, |x| x.max(i)));
        }
    }
}

/// Builder of a schedule's instruction list.
pub(crate) struct Builder {
    pub(crate) instrs: Vec<Instr>,
}

impl Builder {
    pub(crate) fn push(&mut self, ins: Instr) -> u32 {
        self.instrs.push(ins);
        (self.instrs.len() - 1) as u32
    }

    pub(crate) fn add(
        &mut self,
        unit: Unit,
        op: Op,
        what: &'static str,
        at: [u32; 3],
        deps: &[Option<Dep>],
    ) -> u32 {
        let mut ins = Instr::new(unit, op, what, at);
        ins.deps = deps.iter().flatten().copied().collect();
        self.push(ins)
    }

    /// The finished schedule: these instructions on `core` with `pools`, on three DMA queues.
    pub(crate) fn finish(
        self,
        core: &Core,
        pools: Vec<Pool>,
        flops: f64,
        dtype: Dtype,
    ) -> Schedule {
        Schedule {
            core: core.clone(),
            instrs: self.instrs,
            pools,
            flops,
            dtype,
            queues: 3,
        }
    }

    pub(crate) fn free(&mut self, i: u32, mem: Mem, bytes: u32) {
        if let Some(ins) = self.instrs.get_mut(i as usize) {
            let m = usize::from(mem == Mem::Psum);
            ins.free[m] = ins.free[m].saturating_add(bytes);
        }
    }

    pub(crate) fn alloc(&mut self, i: u32, mem: Mem, bytes: u32) {
        if let Some(ins) = self.instrs.get_mut(i as usize) {
            let m = usize::from(mem == Mem::Psum);
            ins.alloc[m] = ins.alloc[m].saturating_add(bytes);
        }
    }
}
