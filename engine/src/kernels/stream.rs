//! Memory streaming kernels (after McCalpin's STREAM): the bandwidth side of a device's own
//! roofline. The caller times them; each returns something that depends on every element so
//! no compiler can skip the work.

/// Bytes each kernel moves per element of f32 arrays, counting reads and writes as STREAM does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stream {
    /// `s += a[i]`: one read.
    Read,
    /// `a[i] = s`: one write.
    Write,
    /// `a[i] = b[i]`: one read, one write.
    Copy,
    /// `a[i] = b[i] + s * c[i]`: two reads, one write.
    Triad,
}

impl Stream {
    /// Every kernel.
    pub const ALL: [Stream; 4] = [Stream::Read, Stream::Write, Stream::Copy, Stream::Triad];

    /// Stable id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Stream::Read => "read",
            Stream::Write => "write",
            Stream::Copy => "copy",
            Stream::Triad => "triad",
        }
    }

    /// Bytes moved per element.
    #[must_use]
    pub const fn bytes_per_element(self) -> usize {
        match self {
            Stream::Read | Stream::Write => 4,
            Stream::Copy => 8,
            Stream::Triad => 12,
        }
    }

    /// Runs once over the arrays (all the same length); returns a checksum.
    #[inline]
    pub fn run(self, a: &mut [f32], b: &[f32], c: &[f32], s: f32) -> f32 {
        match self {
            Stream::Read => {
                // Eight partial sums: vectorizes, and the loads are what is timed.
                let mut acc = [0.0f32; 8];
                for ch in a.chunks_exact(8) {
                    for l in 0..8 {
                        acc[l] += ch[l];
                    }
                }
                acc.iter().sum()
            }
            Stream::Write => {
                a.fill(s);
                a[a.len() / 2]
            }
            Stream::Copy => {
                a.copy_from_slice(b);
                a[a.len() / 2]
            }
            Stream::Triad => {
                for ((x, y), z) in a.iter_mut().zip(b).zip(c) {
                    *x = y + s * z;
                }
                a[a.len() / 2]
            }
        }
    }
}
