//! Total cost of ownership: rented or owned chip-hours, and what they cost per run, per
//! million tokens and per PFLOP-hour.
//!
//! Prices carry sources and dates; where none was found the default is an assumption and
//! flagged as an estimate.

use alloc::vec::Vec;

use crate::source::{Citation, Sourced};

pub mod api;
pub mod rates;

/// AWS Neuron Trn1 performance data: RI-effective instance prices.
pub static N_TRN1PERF: Citation = Citation {
    key: "N-TRN1PERF",
    title: "AWS Neuron: Trn1 training performance data and instance prices (trn1_instance_prices.csv)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/benchmarks/trn1/trn1-training-performance.html",
    date: "2026-08-21",
};
/// usage.ai on Trainium vs GPU instances (list prices).
pub static USAGE_AI: Citation = Citation {
    key: "USAGE-AI",
    title: "usage.ai: Trainium vs GPU instances on AWS (updated 2026-06-25)",
    url: "https://www.usage.ai/blogs/aws/ai-ml-cost/trainium-vs-gpu-instances/",
    date: "2026-06-25",
};
/// p5 prices after the June 2025 cut.
pub static USAGE_AI_CUT: Citation = Citation {
    key: "USAGE-AI-CUT",
    title: "usage.ai: LLM cost optimisation on AWS (p5 price cut of June 2025); Vantage data",
    url: "https://www.usage.ai/blogs/aws/ai-ml-cost/llm-cost-optimization-aws/",
    date: "2025-06",
};
/// p5en on-demand from the AWS price catalogue.
pub static DSTACK_4110: Citation = Citation {
    key: "DSTACK-4110",
    title: "dstack PR #4110: p5en.48xlarge on-demand $63.296/h from the AWS price catalogue",
    url: "https://github.com/dstackai/dstack/pull/4110",
    date: "2026-08-06",
};
/// Tier-2 cloud H100 rates.
pub static NEOCLOUD: Citation = Citation {
    key: "NEOCLOUD",
    title: "Cloud GPU pricing Q1 2026 (tier-2 H100 on-demand ≈ $2.49–3.0/GPU-h)",
    url: "https://digiterialabs.com/ai/insights/cloud-gpu-pricing-q1-2026",
    date: "2026-03",
};
/// GPU street prices, mid-2026.
pub static AIINFRAMAP: Citation = Citation {
    key: "AIINFRAMAP",
    title: "aiinframap: H100 vs H200 vs B200 TCO (street prices ≈ $30k / $35k / $40k, ±20–40%)",
    url: "https://www.aiinframap.com/tools/chips/h100-vs-h200-vs-b200-tco",
    date: "2026",
};

/// SkyPilot's catalog of AWS prices (on-demand rates as AWS's price list gave them).
pub static SKYPILOT_AWS: Citation = Citation {
    key: "SKYPILOT-AWS",
    title: "SkyPilot catalog v7, AWS vms.csv (commit 27f67dd4, a snapshot from before June 2025): trn2.48xlarge $85.964/h and p5en.48xlarge $84.80/h in us-east-2, p5.48xlarge $98.32/h",
    url: "https://github.com/skypilot-org/skypilot-catalog/blob/27f67dd4e1bc0d35fa0ec075180ad54b230882c4/catalogs/v7/aws/vms.csv",
    date: "2025",
};
/// Vantage's instance data for p6-b300 (via a public write-up).
pub static VANTAGE_B300: Citation = Citation {
    key: "VANTAGE-B300",
    title: "Vantage EC2 instance data: p6-b300.48xlarge on-demand $142.42/h",
    url: "https://instances.vantage.sh/aws/ec2/p6-b300.48xlarge",
    date: "2026-08",
};

/// Every citation this module adds.
#[must_use]
pub fn citations() -> Vec<&'static Citation> {
    let mut v = alloc::vec![
        &N_TRN1PERF,
        &USAGE_AI,
        &USAGE_AI_CUT,
        &DSTACK_4110,
        &NEOCLOUD,
        &AIINFRAMAP,
        &SKYPILOT_AWS,
        &VANTAGE_B300
    ];
    v.extend(rates::citations());
    v
}

/// How chip-hours are paid for.
#[derive(Clone, Debug, PartialEq)]
pub enum Pricing {
    /// A rate per chip-hour, less a discount.
    Rental {
        /// List or negotiated $/chip-hour.
        usd_per_chip_hour: Sourced<f64>,
        /// Fraction off (0 = none).
        discount: f64,
    },
    /// Bought and run.
    Owned(Ownership),
}

/// The inputs of owning chips.
#[derive(Clone, Debug, PartialEq)]
pub struct Ownership {
    /// Price per chip including its share of the server, $.
    pub chip_usd: Sourced<f64>,
    /// Networking per chip (NICs, switches, cables), $.
    pub network_usd: Sourced<f64>,
    /// Years over which the capital is recovered.
    pub years: f64,
    /// Annual cost of capital (0.08 = 8%).
    pub cost_of_capital: f64,
    /// All-in power per chip at full load (chip, host share, network), W.
    pub power_w: Sourced<f64>,
    /// Average draw as a fraction of full load.
    pub load: f64,
    /// Power usage effectiveness of the facility.
    pub pue: f64,
    /// Electricity, $/kWh.
    pub usd_per_kwh: f64,
    /// Facility (space, cooling plant) per kW of IT load per month, $.
    pub facility_usd_per_kw_month: f64,
    /// Maintenance per year as a fraction of capital.
    pub maintenance: f64,
}

const HOURS_PER_YEAR: f64 = 8766.0;

impl Ownership {
    /// Capital recovery per chip-hour: an annuity at the cost of capital.
    #[must_use]
    pub fn capital_per_hour(&self) -> f64 {
        let c = self.chip_usd.value + self.network_usd.value;
        let (r, n) = (self.cost_of_capital, self.years.max(1e-9));
        let annual = if r.abs() < 1e-12 {
            c / n
        } else {
            c * r / (1.0 - libm::pow(1.0 + r, -n))
        };
        annual / HOURS_PER_YEAR
    }
    /// Energy per chip-hour at the facility meter.
    #[must_use]
    pub fn power_per_hour(&self) -> f64 {
        self.power_w.value / 1000.0 * self.load * self.pue * self.usd_per_kwh
    }
    /// Facility and maintenance per chip-hour.
    #[must_use]
    pub fn overhead_per_hour(&self) -> f64 {
        self.facility_per_hour() + self.maintenance_per_hour()
    }
    /// The facility's charge for the chip's kilowatts per chip-hour.
    #[must_use]
    pub fn facility_per_hour(&self) -> f64 {
        self.power_w.value / 1000.0 * self.facility_usd_per_kw_month * 12.0 / HOURS_PER_YEAR
    }
    /// Maintenance per chip-hour.
    #[must_use]
    pub fn maintenance_per_hour(&self) -> f64 {
        (self.chip_usd.value + self.network_usd.value) * self.maintenance / HOURS_PER_YEAR
    }
}

impl Pricing {
    /// Effective $ per chip-hour.
    #[must_use]
    pub fn usd_per_chip_hour(&self) -> f64 {
        match self {
            Pricing::Rental {
                usd_per_chip_hour,
                discount,
            } => usd_per_chip_hour.value * (1.0 - discount.clamp(0.0, 1.0)),
            Pricing::Owned(o) => o.capital_per_hour() + o.power_per_hour() + o.overhead_per_hour(),
        }
    }

    /// The effective $ per chip-hour split into the hardware (rent, or capital and
    /// maintenance) and its power and facility (zero when renting: the rate includes them).
    #[must_use]
    pub fn split(&self) -> (f64, f64) {
        match self {
            Pricing::Rental { .. } => (self.usd_per_chip_hour(), 0.0),
            Pricing::Owned(o) => (
                o.capital_per_hour() + o.maintenance_per_hour(),
                o.power_per_hour() + o.facility_per_hour(),
            ),
        }
    }
}

/// Published rental rates for a chip, in the fixed order links index them
/// ([`rates::rates_for`]).
#[must_use]
pub fn rental_options(chip: &str) -> Vec<rates::Rate> {
    rates::rates_for(chip)
}

/// Default ownership inputs for a chip (unit prices are estimates throughout).
#[must_use]
pub fn ownership_default(chip: &str) -> Ownership {
    let (price, watts) = match chip {
        "h100-sxm" => (30_000.0, 1_300.0),
        "h200" => (35_000.0, 1_300.0),
        "b200" => (40_000.0, 1_700.0),
        "gb200" => (45_000.0, 1_700.0),
        "gb300" => (55_000.0, 1_900.0),
        "trn2" => (15_000.0, 844.0),
        "trn3" => (25_000.0, 1_500.0),
        "b300" => (45_000.0, 1_900.0),
        "rubin" => (60_000.0, 2_600.0),
        "mi300x" => (15_000.0, 1_200.0),
        "mi325x" => (20_000.0, 1_500.0),
        "mi355x" => (30_000.0, 2_000.0),
        "mi455x" => (45_000.0, 2_600.0),
        _ => (10_000.0, 700.0),
    };
    let chip_usd = if matches!(chip, "h100-sxm" | "h200" | "b200") {
        Sourced::estimate(price, &AIINFRAMAP).note("street price estimate, ±20–40%")
    } else {
        Sourced::assumption(price)
            .note("no unit price published (Trainium and GB200/GB300 per GPU); an assumption")
    };
    Ownership {
        chip_usd,
        network_usd: Sourced::assumption(1_000.0)
            .note("assumed: no vendor publishes it; analyses quote ~$1,000–1,200 per chip without a source"),
        years: 5.0,
        cost_of_capital: 0.08,
        power_w: Sourced::assumption(watts)
            .note("all-in per chip: chip TDP plus host, NIC and switch share"),
        load: 0.8,
        pue: 1.2,
        usd_per_kwh: 0.08,
        facility_usd_per_kw_month: 150.0,
        maintenance: 0.03,
    }
}

/// Cost of `chips` for `seconds`.
#[must_use]
pub fn cost_of(p: &Pricing, chips: u32, seconds: f64) -> f64 {
    p.usd_per_chip_hour() * f64::from(chips) * seconds / 3600.0
}

/// $ per million tokens at `tokens_per_s` over `chips`.
#[must_use]
pub fn cost_per_mtok(p: &Pricing, chips: u32, tokens_per_s: f64) -> f64 {
    p.usd_per_chip_hour() * f64::from(chips) / (tokens_per_s * 3600.0) * 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rent(x: f64) -> Pricing {
        Pricing::Rental {
            usd_per_chip_hour: Sourced::estimate(x, &USAGE_AI),
            discount: 0.0,
        }
    }

    #[test]
    fn published_rates_per_chip() {
        // AWS Neuron: trn1.32xlarge RI-effective $8.197/h over 16 chips = $0.51 per chip-hour.
        let t = rental_options("trn1");
        assert!((t[1].usd_per_chip_hour() - 0.5123).abs() < 1e-3);
        // p5 after the 2025 cut: $55.04/h over 8 GPUs = $6.88.
        assert!((rental_options("h100-sxm")[0].usd_per_chip_hour() - 6.88).abs() < 1e-2);
        // trn2.48xlarge on-demand in us-east-2: $85.964/h over 16 chips.
        let t = rental_options("trn2")[0].sourced();
        assert!((t.value - 5.373).abs() < 1e-3 && !t.estimate);
        assert!(
            rental_options("trn3")[0].sourced().estimate,
            "no Trn3 price: flagged"
        );
    }

    #[test]
    fn ownership_adds_up() {
        let o = Ownership {
            chip_usd: Sourced::estimate(30_000.0, &AIINFRAMAP),
            network_usd: Sourced::estimate(0.0, &AIINFRAMAP),
            years: 5.0,
            cost_of_capital: 0.0,
            power_w: Sourced::estimate(1000.0, &AIINFRAMAP),
            load: 1.0,
            pue: 1.0,
            usd_per_kwh: 0.10,
            facility_usd_per_kw_month: 0.0,
            maintenance: 0.0,
        };
        // $30,000 over 5 years of 8,766 h, plus 1 kW at $0.10/kWh.
        let p = Pricing::Owned(o);
        assert!((p.usd_per_chip_hour() - (30_000.0 / 5.0 / 8766.0 + 0.1)).abs() < 1e-9);
    }

    #[test]
    fn cheaper_prices_and_more_throughput_never_raise_cost_per_token() {
        let mut last = f64::INFINITY;
        for price in [10.0, 5.0, 2.0, 1.0] {
            let c = cost_per_mtok(&rent(price), 8, 1000.0);
            assert!(c <= last);
            last = c;
        }
        let mut last = f64::INFINITY;
        for tps in [100.0, 1000.0, 5000.0] {
            let c = cost_per_mtok(&rent(2.0), 8, tps);
            assert!(c <= last);
            last = c;
        }
        let mut last = f64::INFINITY;
        for d in [0.0, 0.2, 0.5] {
            let p = Pricing::Rental {
                usd_per_chip_hour: Sourced::estimate(4.0, &USAGE_AI),
                discount: d,
            };
            assert!(p.usd_per_chip_hour() <= last);
            last = p.usd_per_chip_hour();
        }
    }

    #[test]
    fn a_higher_cost_of_capital_costs_more() {
        let mut o = ownership_default("h100-sxm");
        let a = o.capital_per_hour();
        o.cost_of_capital = 0.15;
        assert!(o.capital_per_hour() > a);
    }
}
