//! The link between an accelerator and its host's memory, per chip and per direction: what
//! activations offloaded to host memory cross twice a training step.

use crate::catalog::{NV_GB200, NV_GB300, NV_H100, NV_H200};
use crate::chip::Chip;
use crate::source::{Citation, Sourced};

/// PCI-SIG's PCI Express 5.0 base specification: 32 GT/s a lane, so about 63 GB/s each way
/// on sixteen lanes (128b/130b encoding).
pub static PCIE5: Citation = Citation {
    key: "PCIE-5.0",
    title: "PCI-SIG: PCI Express Base Specification 5.0 (32 GT/s per lane; a x16 link carries about 63 GB/s each way)",
    url: "https://pcisig.com/specifications/pciexpress/",
    date: "2019-05",
};

/// PCIe 5.0 x16, each way, bytes/s.
const PCIE5_X16: f64 = 64e9;

/// The host link of `chip` (or of the chip a custom one is based on), bytes/s each way.
#[must_use]
pub fn host_link(chip: &Chip) -> Sourced<f64> {
    let id = chip.based_on.as_deref().unwrap_or(&chip.id);
    match id {
        "h100-sxm" => Sourced::vendor(PCIE5_X16, &NV_H100)
            .note("PCIe Gen5: 128 GB/s both ways, 64 GB/s each"),
        "h200" => Sourced::vendor(PCIE5_X16, &NV_H200)
            .note("PCIe Gen5: 128 GB/s both ways, 64 GB/s each"),
        "gb200" => Sourced::vendor(450e9, &NV_GB200)
            .note("NVLink-C2C to the Grace CPU: 900 GB/s both ways, 450 GB/s each"),
        "gb300" => Sourced::vendor(450e9, &NV_GB300)
            .note("NVLink-C2C to the Grace CPU: 900 GB/s both ways, 450 GB/s each"),
        "tpu-v5e" | "tpu-v5p" | "tpu-v6e" => Sourced::estimate(PCIE5_X16 / 2.0, &PCIE5)
            .note("taken as PCIe Gen4 x16 (half of Gen5's 64 GB/s each way): Google publishes no host link figure"),
        _ => Sourced::estimate(PCIE5_X16, &PCIE5)
            .note("taken as PCIe Gen5 x16, 64 GB/s each way: no figure for this chip's host link is published"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn every_chip_has_a_host_link_and_grace_s_is_the_widest() {
        for c in catalog::presets() {
            let h = host_link(&c);
            assert!(h.value >= 32e9 && h.value <= 450e9, "{}", c.id);
            assert!(!h.note.is_empty());
        }
        let gb = host_link(&catalog::find("gb200").unwrap());
        let h = host_link(&catalog::find("h100-sxm").unwrap());
        assert!(gb.value > 7.0 * h.value && !gb.estimate && !h.estimate);
    }
}
