//! The share-link codec: a scenario as a query string and back, each key by the rules of
//! the link-key table ([`crate::keys`]), what cannot be read named in a notice.

use super::*;

impl Scenario {
    /// Encode as a query string (without the leading `?`): the version, then only the keys
    /// whose values differ from the defaults, in a fixed order. The default view is `v=4`.
    #[must_use]
    pub fn to_query(&self) -> String {
        let mine = self.to_query_full();
        let base = Scenario::default().to_query_full();
        let group = |q: &str| -> Vec<(String, Vec<String>)> {
            let mut g: Vec<(String, Vec<String>)> = Vec::new();
            for p in q.split('&').skip(1) {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                match g.iter_mut().find(|(key, _)| key == k) {
                    Some((_, vs)) => vs.push(v.to_string()),
                    None => g.push((k.to_string(), alloc::vec![v.to_string()])),
                }
            }
            g
        };
        let (mine, base) = (group(&mine), group(&base));
        let mut q = alloc::vec![format!("v={VERSION}")];
        for (k, vs) in &mine {
            if base.iter().find(|(b, _)| b == k).map(|(_, bv)| bv) != Some(vs) {
                q.extend(vs.iter().map(|v| format!("{k}={v}")));
            }
        }
        q.join("&")
    }

    /// Every key, defaults included (what version 1 links held).
    #[must_use]
    pub fn to_query_full(&self) -> String {
        let mut q = Vec::new();
        q.push(format!("v={VERSION}"));
        q.push(format!("page={}", self.page.id()));
        q.push(format!("embed={}", u8::from(self.embed)));
        q.push(format!("lesson={}", self.lesson));
        q.push(format!("chips={}", enc(&self.chips.join(","))));
        q.push(format!("fmt={}", self.format.id()));
        let rf: Vec<&str> = self.roofline_formats.iter().map(|d| d.id()).collect();
        q.push(format!("rfmt={}", rf.join(",")));
        for op in &self.ops {
            q.push(format!("op={}", enc(&op.to_spec())));
        }
        if self.ops.is_empty() {
            q.push("op=".into());
        }
        for c in &self.custom {
            q.push(format!("custom={}", enc(&c.to_spec())));
        }
        let t = &self.topology;
        q.push(format!("sys={}", enc(&t.system)));
        match t.selected {
            Some(c) => q.push(format!("sel={c}")),
            None => q.push("sel=".into()),
        }
        if let Some(c) = t.failed {
            q.push(format!("fail={c}"));
        }
        let c = &self.collectives;
        q.push(format!("csys={}", enc(&c.systems.join(","))));
        let ops: Vec<&str> = c.ops.iter().map(|o| o.id()).collect();
        q.push(format!("cop={}", ops.join(",")));
        let al: Vec<&str> = c.algorithms.iter().map(|a| a.id()).collect();
        q.push(format!("calgo={}", al.join(",")));
        q.push(format!("nodes={}", c.nodes));
        q.push(format!("size={}", c.bytes));
        let j = &self.job;
        q.push(format!("wsys={}", enc(&j.system)));
        q.push(format!("wnodes={}", j.nodes));
        q.push(format!("wmodel={}", enc(&j.model)));
        q.push(format!("wdtype={}", j.dtype.id()));
        q.push(format!("wtokens={:e}", j.tokens));
        q.push(format!("wgbs={}", j.global_batch));
        if let Some(e) = j.efficiency {
            q.push(format!("weff={e}"));
        }
        q.push(format!("wbatch={}", j.batch));
        q.push(format!("wpr={}", j.prompt));
        q.push(format!("wout={}", j.output));
        q.push(format!("wown={}", u8::from(j.owned)));
        if let Some(p) = j.usd_per_chip_hour {
            q.push(format!("wprice={p}"));
        }
        q.push(format!("wdisc={}", j.discount));
        q.push(format!("wyears={}", j.years));
        q.push(format!("wpue={}", j.pue));
        q.push(format!("wkwh={}", j.usd_per_kwh));
        if let Some(o) = j.rental_option {
            q.push(format!("wopt={o}"));
        }
        if let Some(b) = &j.price_basis {
            q.push(format!("wbasis={b}"));
        }
        q.push(format!("wread={}", j.link_reading.id()));
        if let Some(c) = j.chip_usd {
            q.push(format!("wchip={c}"));
        }
        q.push(format!("wcoc={}", j.cost_of_capital));
        q.push(format!("wfac={}", j.facility_usd_per_kw_month));
        q.push(format!("wmaint={}", j.maintenance));
        if let Some(o) = j.overlap {
            q.push(format!("wov={o}"));
        }
        if let Some(n) = j.network_usd {
            q.push(format!("wnet={n}"));
        }
        q.push(format!("wload={}", j.load));
        q.push(format!("wsrate={}", j.sim_rate));
        q.push(format!("wstraffic={}", j.sim_traffic));
        q.push(format!("wsdur={}", j.sim_duration_s));
        q.push(format!("wspc={}", u8::from(j.sim_prefix_cache)));
        q.push(format!("wseng={}", j.sim_engine));
        q.push(format!("wsvary={}", u8::from(j.sim_vary)));
        q.push(format!("wshkv={}", j.sim_host_kv_gb));
        q.push(format!("wshbw={}", j.sim_host_bw_gbps));
        q.push(format!("wref={}", enc(&j.compare_with)));
        q.push(format!("wlever={}", j.lever.id()));
        q.push(format!("wttft={}", j.ttft_s));
        q.push(format!("wtpot={}", j.tpot_s));
        q.push(format!("wcurve={}", enc(&j.curve_systems.join(","))));
        q.push(format!(
            "wcy={}",
            if j.curve_per_usd { "usd" } else { "chip" }
        ));
        q.push(format!("wwt={}", j.weight_dtype.map_or("", |d| d.id())));
        q.push(format!("wkv={}", j.kv_dtype.map_or("", |d| d.id())));
        q.push(format!("wdraft={}", j.draft_tokens));
        q.push(format!("wacc={}", j.acceptance));
        q.push(format!("wprefix={}", j.prefix_hit));
        q.push(format!("wpsys={}", enc(&j.prefill_system)));
        q.push(format!("wlm={}", j.model_version));
        for (k, v) in [
            ("wfrate", j.fail_rate),
            ("wrepair", j.repair_h),
            ("wrestart", j.restart_min),
            ("wckpt", j.ckpt_bytes_per_s),
            ("wimb", j.expert_imbalance),
            ("wmb", j.micro_batch.map(f64::from)),
            ("woff", j.offload.map(|b| f64::from(u8::from(b)))),
            ("wadp", j.attn_dp.map(f64::from)),
            ("wep", j.ep.map(f64::from)),
        ] {
            if let Some(x) = v {
                q.push(format!("{k}={x}"));
            }
        }
        q.push(format!("wdsys={}", enc(&j.decode_system)));
        for (k, v) in self.kernel.to_pairs() {
            q.push(format!("{k}={}", enc(&v)));
        }
        if !self.neuroncore.is_empty() {
            q.push(format!("knc={}", enc(&self.neuroncore)));
        }
        if let Some(p) = self.nc_point {
            q.push(format!("kncpt={}", enc(&nc_point_text(p))));
        }
        if !self.device.is_empty() {
            q.push(format!(
                "dev={}",
                enc(&crate::kernels::device::to_spec(&self.device))
            ));
        }
        for c in &self.compared {
            q.push(format!("cmp={}", enc(&compared::entry_text(c))));
        }
        q.join("&")
    }

    /// Decode a query string (with or without `?`). Unreadable parts keep their defaults
    /// and are reported; this never fails as a whole.
    #[must_use]
    pub fn from_query(query: &str) -> (Scenario, Vec<Notice>) {
        let mut s = Scenario::default();
        let mut notes = Vec::new();
        // A hostile link may hold a million bad parts: name the first few, count the rest.
        let mut dropped = 0usize;
        let mut note = |key: &str, message: String| {
            if notes.len() < MAX_NOTICES {
                notes.push(Notice {
                    key: clip(key),
                    message: clip_n(&message, 300),
                });
            } else {
                dropped += 1;
            }
        };
        let pairs = query_pairs(query);
        if pairs.is_empty() {
            return (s, notes);
        }
        match pairs.iter().find(|(k, _)| k == "v").map(|(_, v)| v.as_str()) {
            Some("1" | "2") => {
                s.job.model_version = 2;
                s.job.rental_option = Some(0);
                s.job.link_reading = system::LinkReading::Legacy;
            }
            Some("3") => {
                s.job.model_version = 3;
                s.job.rental_option = Some(0);
                s.job.link_reading = system::LinkReading::Legacy;
            }
            Some("4") => {
                s.job.price_basis = Some(crate::tco::rates::LEGACY_BASIS.id());
                s.job.model_version = 5;
            }
            Some("5") => s.job.model_version = 6,
            Some("6") => s.job.model_version = 7,
            Some("7") => s.job.model_version = 8,
            Some("8") => s.job.model_version = 9,
            Some("9") | None => {}
            Some(v) => note(
                "v",
                format!("link version '{v}' is newer than this app understands (version {VERSION}); reading it as version {VERSION}"),
            ),
        }
        // Custom chips first: chip ids may refer to them.
        let mut custom = Vec::new();
        for (_, v) in pairs.iter().filter(|(k, _)| k == "custom") {
            if custom.len() == MAX_ITEMS {
                note(
                    "custom",
                    format!("more than {MAX_ITEMS} custom chips; the rest are ignored"),
                );
                break;
            }
            match ChipEdit::parse_spec(v) {
                Ok(e) if catalog::find(&e.base).is_ok() => custom.push(e),
                Ok(e) => note(
                    "custom",
                    format!(
                        "'{}' is not a preset to clone ({}); custom chip dropped",
                        e.base,
                        catalog::ids().join(", ")
                    ),
                ),
                Err(e) => note("custom", format!("{e}; custom chip dropped")),
            }
        }
        s.custom = custom;
        let known: Vec<String> = catalog::ids()
            .into_iter()
            .map(String::from)
            .chain((0..s.custom.len()).map(custom_id))
            .collect();
        let mut ops = Vec::new();
        let mut saw_op = false;
        for (k, v) in &pairs {
            match k.as_str() {
                "v" | "custom" => {}
                "page" => match Page::ALL.iter().find(|p| p.id() == v) {
                    Some(p) => s.page = *p,
                    None => note("page", format!("no page '{v}'; showing Chips")),
                },
                "chips" => {
                    let mut chips = Vec::new();
                    for id in v.split(',').filter(|x| !x.is_empty()) {
                        if !known.iter().any(|k| k == id) {
                            note(
                                "chips",
                                format!(
                                    "unknown chip '{id}' skipped (valid: {})",
                                    known.join(", ")
                                ),
                            );
                        } else if !chips.iter().any(|c| c == id) && chips.len() < MAX_ITEMS {
                            chips.push(id.to_string());
                        }
                    }
                    if chips.is_empty() {
                        note("chips", "no usable chip; showing the default set".into());
                    } else {
                        s.chips = chips;
                    }
                }
                "fmt" => match v.parse() {
                    Ok(d) => s.format = d,
                    Err(e) => note("fmt", format!("{e}; using BF16")),
                },
                "rfmt" => {
                    let mut f = Vec::new();
                    for x in v.split(',').filter(|x| !x.is_empty()) {
                        match x.parse::<Dtype>() {
                            Ok(d) if !f.contains(&d) => f.push(d),
                            Ok(_) => {}
                            Err(e) => note("rfmt", format!("{e}; skipped")),
                        }
                    }
                    if f.is_empty() {
                        note("rfmt", "no usable format; using BF16".into());
                    } else {
                        s.roofline_formats = f;
                    }
                }
                "op" => {
                    saw_op = true;
                    if v.is_empty() {
                        continue;
                    }
                    if ops.len() == MAX_ITEMS {
                        note(
                            "op",
                            format!("more than {MAX_ITEMS} operations; the rest are ignored"),
                        );
                        continue;
                    }
                    match OpSpec::parse_spec(v) {
                        Ok(o) => ops.push(o),
                        Err(e) => note("op", format!("{e}; operation skipped")),
                    }
                }
                "sys" => match system::find(v) {
                    Ok(_) => s.topology.system = v.clone(),
                    Err(e) => note("sys", format!("{e}; showing {}", s.topology.system)),
                },
                "sel" | "fail" => {
                    // Checked against the system's size once every key is read.
                    match v.parse::<u32>() {
                        Ok(c) if k == "sel" => s.topology.selected = Some(c),
                        Ok(c) => s.topology.failed = Some(c),
                        // `sel=` says no chip is selected (the default selects chip 0).
                        Err(_) if v.is_empty() && k == "sel" => s.topology.selected = None,
                        Err(_) => note(k, format!("'{v}' is not a chip number; ignored")),
                    }
                }
                "csys" => {
                    let mut list = Vec::new();
                    for id in v.split(',').filter(|x| !x.is_empty()) {
                        match system::find(id) {
                            Ok(_) if !list.iter().any(|x| x == id) && list.len() < MAX_ITEMS => {
                                list.push(id.to_string());
                            }
                            Ok(_) => {}
                            Err(e) => note("csys", format!("{e}; skipped")),
                        }
                    }
                    if list.is_empty() {
                        note("csys", "no usable system; showing the default set".into());
                    } else {
                        s.collectives.systems = list;
                    }
                }
                "cop" => {
                    let mut list = Vec::new();
                    for x in v.split(',').filter(|x| !x.is_empty()) {
                        match x.parse::<Op>() {
                            Ok(o) if !list.contains(&o) => list.push(o),
                            Ok(_) => {}
                            Err(e) => note("cop", format!("{e}; skipped")),
                        }
                    }
                    if list.is_empty() {
                        note("cop", "no usable operation; showing all-reduce".into());
                    } else {
                        s.collectives.ops = list;
                    }
                }
                "calgo" => {
                    let mut list = Vec::new();
                    for x in v.split(',').filter(|x| !x.is_empty()) {
                        match x.parse::<Algorithm>() {
                            Ok(a) if !list.contains(&a) => list.push(a),
                            Ok(_) => {}
                            Err(e) => note("calgo", format!("{e}; skipped")),
                        }
                    }
                    if list.is_empty() {
                        note("calgo", "no usable algorithm; using auto".into());
                    } else {
                        s.collectives.algorithms = list;
                    }
                }
                "nodes" => match v.parse::<u32>() {
                    Ok(n) if (1..=MAX_NODES).contains(&n) => s.collectives.nodes = n,
                    _ => note(
                        "nodes",
                        format!("'{v}' is not a node count from 1 to {MAX_NODES}; using 1"),
                    ),
                },
                "size" => match v.parse::<Bytes>() {
                    Ok(b) if keys::range("size").is_some_and(|(lo, hi)| (lo..=hi).contains(&b.get())) => {
                        s.collectives.bytes = b.get();
                    }
                    Ok(_) => note(
                        "size",
                        format!("'{}' is not a size from 1 B to 1 PB; using 1 GiB", clip(v)),
                    ),
                    Err(e) => note("size", format!("{e}; using 1 GiB")),
                },
                "wsys" => match system::find(v) {
                    Ok(_) => s.job.system = v.clone(),
                    Err(e) => note("wsys", format!("{e}; using {}", s.job.system)),
                },
                "wmodel" => match crate::workload::check_model(v) {
                    Ok(_) => s.job.model = v.clone(),
                    Err(e) => note("wmodel", format!("{e}; using {}", s.job.model)),
                },
                "wdtype" => match v.parse() {
                    Ok(d) => s.job.dtype = d,
                    Err(e) => note("wdtype", format!("{e}; using BF16")),
                },
                "wnodes" | "wgbs" | "wbatch" | "wpr" | "wout" | "wmb" | "wadp" | "wep" => match v.parse::<u32>() {
                    Ok(n) if k == "wnodes" && n > MAX_NODES => note(
                        k,
                        format!(
                            "{n} nodes is more than the {MAX_NODES} a job may use; default kept"
                        ),
                    ),
                    Ok(n) if keys::range(k).is_some_and(|(lo, hi)| (lo..=hi).contains(&f64::from(n))) => match k.as_str() {
                        "wnodes" => s.job.nodes = n,
                        "wgbs" => s.job.global_batch = n,
                        "wpr" => s.job.prompt = n,
                        "wout" => s.job.output = n,
                        "wmb" => s.job.micro_batch = Some(n),
                        "wadp" => s.job.attn_dp = Some(n),
                        "wep" => s.job.ep = Some(n),
                        _ => s.job.batch = n,
                    },
                    _ => note(
                        k,
                        match keys::range(k) {
                            Some((lo, hi)) => format!(
                                "'{}' is not a whole number from {lo} to {hi}; default kept",
                                clip(v)
                            ),
                            None => format!("'{}' is not a positive whole number; default kept", clip(v)),
                        },
                    ),
                },
                "wref" => match system::find(v) {
                    Ok(_) => s.job.compare_with = v.clone(),
                    Err(e) => note(
                        "wref",
                        format!("{e}; comparing with {}", s.job.compare_with),
                    ),
                },
                "wlever" => match crate::job::Lever::ALL.iter().find(|l| l.id() == v) {
                    Some(l) => s.job.lever = *l,
                    None => note(
                        "wlever",
                        format!("no lever '{v}' (valid: efficiency, discount, price)"),
                    ),
                },
                "wopt" => match v.parse::<u32>() {
                    Ok(n) if keys::range("wopt").is_some_and(|(_, hi)| f64::from(n) <= hi) => {
                        s.job.rental_option = Some(n);
                    }
                    _ => note(
                        "wopt",
                        format!("'{v}' is not a rate option; pricing on the price basis"),
                    ),
                },
                "wread" => match system::LinkReading::parse(v) {
                    Some(r) => s.job.link_reading = r,
                    None => note(
                        "wread",
                        format!(
                            "no reading '{v}' of AWS's link figures (valid: {}); using {}",
                            system::LinkReading::ALL.map(system::LinkReading::id).join(", "),
                            s.job.link_reading.id()
                        ),
                    ),
                },
                "wstraffic" => match crate::servesim::Traffic::named(v) {
                    Some(t) => s.job.sim_traffic = t.id().into(),
                    None => note(
                        "wstraffic",
                        format!(
                            "no traffic '{v}' (valid: {}); simulating {}",
                            crate::servesim::Traffic::IDS.join(", "),
                            s.job.sim_traffic
                        ),
                    ),
                },
                "wseng" => match crate::servesim::engines::IDS.iter().find(|id| **id == v) {
                    Some(id) => s.job.sim_engine = (*id).into(),
                    None => note(
                        "wseng",
                        format!(
                            "no serving engine '{v}' (valid: {}); simulating {}",
                            crate::servesim::engines::IDS.join(", "),
                            s.job.sim_engine
                        ),
                    ),
                },
                "wsvary" => match v.as_str() {
                    "0" => s.job.sim_vary = false,
                    "1" => s.job.sim_vary = true,
                    _ => note(
                        "wsvary",
                        format!("'{v}' is not 0 or 1; every request takes the given lengths"),
                    ),
                },
                "wspc" => match v.as_str() {
                    "0" => s.job.sim_prefix_cache = false,
                    "1" => s.job.sim_prefix_cache = true,
                    _ => note("wspc", format!("'{v}' is not 0 or 1; the prefix cache is on")),
                },
                "wbasis" => match crate::tco::rates::Basis::parse(v) {
                    Some(b) => s.job.price_basis = Some(b.id()),
                    None => note(
                        "wbasis",
                        format!(
                            "no price basis '{v}' (valid: {}); using {}",
                            crate::tco::rates::basis_ids(),
                            crate::tco::rates::default_basis().id()
                        ),
                    ),
                },
                k if crate::job::range(k).is_some() => {
                    let (lo, hi) = crate::job::range(k).unwrap_or((0.0, 0.0));
                    match v.parse::<f64>() {
                        Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => match k {
                            "wtokens" => s.job.tokens = x,
                            "weff" => s.job.efficiency = Some(x),
                            "wprice" => s.job.usd_per_chip_hour = Some(x),
                            "wdisc" => s.job.discount = x,
                            "wyears" => s.job.years = x,
                            "wpue" => s.job.pue = x,
                            "wchip" => s.job.chip_usd = Some(x),
                            "wcoc" => s.job.cost_of_capital = x,
                            "wfac" => s.job.facility_usd_per_kw_month = x,
                            "wmaint" => s.job.maintenance = x,
                            "wov" => s.job.overlap = Some(x),
                            "wnet" => s.job.network_usd = Some(x),
                            "wload" => s.job.load = x,
                            "wttft" => s.job.ttft_s = x,
                            "wacc" => s.job.acceptance = x,
                            "wprefix" => s.job.prefix_hit = x,
                            "wfrate" => s.job.fail_rate = Some(x),
                            "wrepair" => s.job.repair_h = Some(x),
                            "wrestart" => s.job.restart_min = Some(x),
                            "wckpt" => s.job.ckpt_bytes_per_s = Some(x),
                            "wimb" => s.job.expert_imbalance = Some(x),
                            "wtpot" => s.job.tpot_s = x,
                            "wsrate" => s.job.sim_rate = x,
                            "wsdur" => s.job.sim_duration_s = x,
                            "wshkv" => s.job.sim_host_kv_gb = x,
                            "wshbw" => s.job.sim_host_bw_gbps = x,
                            _ => s.job.usd_per_kwh = x,
                        },
                        _ => note(
                            k,
                            format!("'{v}' is not a number from {lo} to {hi}; default kept"),
                        ),
                    }
                }
                "wown" => s.job.owned = v == "1",
                "woff" => match v.as_str() {
                    "1" => s.job.offload = Some(true),
                    "0" => s.job.offload = Some(false),
                    _ => note(
                        "woff",
                        format!(
                            "'{}' is not 0 or 1; layer inputs are offloaded where nothing else fits",
                            clip(v)
                        ),
                    ),
                },
                "lesson" => match crate::keys::LESSONS.iter().find(|id| **id == v) {
                    Some(id) => s.lesson = (*id).into(),
                    None if v.is_empty() => s.lesson.clear(),
                    None => note(
                        "lesson",
                        format!(
                            "no lesson '{v}' (valid: {}); showing the first",
                            crate::keys::LESSONS.join(", ")
                        ),
                    ),
                },
                "cmp" => {
                    if s.compared.len() == compared::MAX_COMPARED {
                        note(
                            "cmp",
                            format!(
                                "more than {} compared scenarios; the rest are left out",
                                compared::MAX_COMPARED
                            ),
                        );
                        continue;
                    }
                    match compared::parse_entry(v) {
                        Ok(c) => s.compared.push(c),
                        Err(e) => note(
                            "cmp",
                            format!(
                                "compared scenario {} left out: {e}",
                                s.compared.len() + 1
                            ),
                        ),
                    }
                }
                "embed" => match v.as_str() {
                    "0" => s.embed = false,
                    "1" => s.embed = true,
                    _ => note("embed", format!("'{v}' is not 0 or 1; the whole app is shown")),
                },
                "wlm" => match v.parse::<u32>() {
                    Ok(n) if (2..=crate::keys::MODEL_VERSION).contains(&n) => {
                        s.job.model_version = n;
                    }
                    _ => note(
                        "wlm",
                        format!(
                            "'{}' is not a training-layout model (2 to {}); using {}",
                            clip(v),
                            crate::keys::MODEL_VERSION,
                            s.job.model_version
                        ),
                    ),
                },
                "wpsys" | "wdsys" => {
                    let slot = if k == "wpsys" {
                        &mut s.job.prefill_system
                    } else {
                        &mut s.job.decode_system
                    };
                    if v.is_empty() {
                        slot.clear();
                    } else {
                        match system::find(v) {
                            Ok(_) => *slot = v.clone(),
                            Err(e) => note(k, format!("{e}; the job's own platform is used")),
                        }
                    }
                }
                "wwt" | "wkv" => {
                    let slot = if k == "wwt" {
                        &mut s.job.weight_dtype
                    } else {
                        &mut s.job.kv_dtype
                    };
                    if v.is_empty() {
                        *slot = None;
                    } else {
                        match v.parse() {
                            Ok(d) => *slot = Some(d),
                            Err(e) => note(k, format!("{e}; the compute format is used")),
                        }
                    }
                }
                "wdraft" => match v.parse::<u32>() {
                    Ok(n) if n <= crate::keys::MAX_DRAFT => s.job.draft_tokens = n,
                    _ => note(
                        "wdraft",
                        format!(
                            "'{}' is not a number of drafted tokens from 0 to {}; none",
                            clip(v),
                            crate::keys::MAX_DRAFT
                        ),
                    ),
                },
                "wcy" => match v.as_str() {
                    "usd" | "chip" => s.job.curve_per_usd = v == "usd",
                    _ => note("wcy", format!("'{}' is not chip or usd; per chip", clip(v))),
                },
                "wcurve" => {
                    // An empty list is a choice too: the job's own platform alone.
                    let mut list = Vec::new();
                    for id in v.split(',').filter(|x| !x.is_empty()) {
                        match system::find(id) {
                            Ok(_) if !list.iter().any(|x| x == id) && list.len() < MAX_CURVES => {
                                list.push(id.to_string());
                            }
                            Ok(_) => {}
                            Err(e) => note("wcurve", format!("{e}; skipped")),
                        }
                    }
                    s.job.curve_systems = list;
                }
                "knc" if nc_text_ok(v) => s.neuroncore = v.clone(),
                "kncpt" => match parse_nc_point(v) {
                    Some(p) => s.nc_point = Some(p),
                    None => note(
                        "kncpt",
                        "not a NeuronCore result (FLOP/B,FLOP/s, both positive); not drawn".into(),
                    ),
                },
                "knc" => note(
                    "knc",
                    "not a NeuronCore experiment (at most 200 letters, digits, _ and .); the default is shown".into(),
                ),
                "dev" => match crate::kernels::device::parse_spec(v) {
                    Ok(d) => s.device = d,
                    Err(e) => note("dev", format!("{e}; measured roofs dropped")),
                },
                k if k.starts_with('k') && KERNEL_KEYS.contains(&k) => {}
                other => note(other, "unknown setting ignored".into()),
            }
        }
        if saw_op {
            s.ops = ops;
        }
        let (kernel, knotes) = crate::kernels::KernelSpec::from_pairs(
            pairs
                .iter()
                .filter(|(k, _)| KERNEL_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.as_str(), v.as_str())),
        );
        s.kernel = kernel;
        for n in knotes {
            let key = n.split(['=', ':']).next().unwrap_or("kernel").to_string();
            note(&key, n);
        }
        let chips = system::find(&s.topology.system).map_or(0, |x| x.chips());
        for (key, slot) in [
            ("sel", &mut s.topology.selected),
            ("fail", &mut s.topology.failed),
        ] {
            if let Some(c) = *slot {
                if c >= chips {
                    *slot = None;
                    note(
                        key,
                        format!("chip {c} does not exist in a {chips}-chip system; ignored"),
                    );
                }
            }
        }
        // Every notice above went through `note`, so this count covers them all.
        if dropped > 0 {
            notes.push(Notice {
                key: "…".into(),
                message: format!("{dropped} more parts could not be read either"),
            });
        }
        (s, notes)
    }
}

/// At most 40 characters of an untrusted value, for a notice.
fn clip(v: &str) -> String {
    clip_n(v, 40)
}

fn clip_n(v: &str, n: usize) -> String {
    let mut c: String = v.chars().take(n).collect();
    if c.len() < v.len() {
        c.push('…');
    }
    c
}

/// Each key's default: its value in a full link of the default state (empty for keys a
/// default link does not write).
#[must_use]
pub fn key_defaults() -> Vec<(&'static str, String)> {
    let full = Scenario::default().to_query_full();
    let pairs = query_pairs(&full);
    keys::KEYS
        .iter()
        .map(|k| {
            let v = pairs
                .iter()
                .find(|(p, _)| p == k.key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            (k.key, v)
        })
        .collect()
}
