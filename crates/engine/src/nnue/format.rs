//! The network file format (module documentation of [`crate::nnue`],
//! "File format"): versions 1 to 4, read and written.

use super::*;
use chimera_rules::Variant;

/// The first bytes of a network file, version 1 (CReLU, one output bucket).
pub const MAGIC: &[u8; 8] = b"CHIMNN1\n";
/// The first bytes of a network file, version 2 (activation and buckets in
/// the header).
pub const MAGIC2: &[u8; 8] = b"CHIMNN2\n";
/// Most output buckets a net may have.
pub const MAX_BUCKETS: usize = 8;
/// The first bytes of a network file, version 3 (version 2 with input sets
/// chosen by the king's square).
pub const MAGIC3: &[u8; 8] = b"CHIMNN3\n";
/// The first bytes of a network file, version 4 (version 3's header after
/// the `u32` layout of its inputs, [`LAYOUT`]; any number of king buckets).
pub const MAGIC4: &[u8; 8] = b"CHIMNN4\n";

/// The file version a net of `shape` is written in by a build whose inputs
/// are of `layout`: the oldest that holds it (1, 2 or 3 for the layout of
/// those versions, [`LAYOUT_V1_3`]; 4, which names the layout, for any
/// other).
pub const fn file_version(shape: Shape, layout: u32) -> u8 {
    if layout != LAYOUT_V1_3 {
        4
    } else if shape.is_version1() {
        1
    } else if shape.is_version3() {
        3
    } else {
        2
    }
}

/// Bytes of a network file of `shape`, `version` with a variant id of
/// `id_len` bytes.
pub const fn file_len_of(id_len: usize, shape: Shape, version: u8) -> usize {
    8 + if version >= 4 { 4 } else { 0 }
        + 1
        + id_len
        + 8
        + if version >= 2 { 2 } else { 0 }
        + if version >= 3 { 1 } else { 0 }
        + 2 * (shape.rows() * shape.width + shape.width + shape.buckets * 2 * shape.width)
        + 4 * shape.buckets
}

/// Bytes of the network file this build writes for `shape` with a variant
/// id of `id_len` bytes.
pub const fn file_len(id_len: usize, shape: Shape) -> usize {
    file_len_of(id_len, shape, file_version(shape, LAYOUT))
}

/// No network file is longer: the widest net with the most king and
/// output buckets and the longest variant id, in version 4 (the longest
/// header).
pub const MAX_FILE_LEN: usize =
    file_len_of(255, Shape { activation: Activation::SCReLU, buckets: MAX_BUCKETS, width: MAX_HIDDEN, kings: 8 }, 4);

impl Network {
    /// Reads a network file (format in the module documentation). The
    /// error says what is wrong with the bytes.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<Network, String> {
        let version = match bytes.get(..8) {
            Some(m) if m == MAGIC => 1,
            Some(m) if m == MAGIC2 => 2,
            Some(m) if m == MAGIC3 => 3,
            Some(m) if m == MAGIC4 => 4,
            _ => {
                return Err(
                    "not a Chimera network file (it must start with CHIMNN1, CHIMNN2, CHIMNN3 or CHIMNN4)".into()
                )
            }
        };
        let (v2, v3) = (version >= 2, version >= 3);
        // Version 4 names the layout of its inputs; versions 1-3 are of one.
        let (layout, bytes) = if version == 4 {
            let l = bytes.get(8..12).ok_or("the file ends inside the header")?;
            (u32::from_le_bytes([l[0], l[1], l[2], l[3]]), &bytes[4..])
        } else {
            (LAYOUT_V1_3, bytes)
        };
        if layout != LAYOUT {
            return Err(format!(
                "the net's inputs are of another layout: the file's are {}, this build's {} (a net of another build: \
                 train it again)",
                describe_layout(layout),
                describe_layout(LAYOUT)
            ));
        }
        if bytes.len() < 9 {
            return Err("the file ends inside the header".into());
        }
        let id_len = bytes[8] as usize;
        let id = bytes.get(9..9 + id_len).ok_or("the file ends inside the variant id")?;
        let id = std::str::from_utf8(id).map_err(|_| "the variant id is not UTF-8".to_string())?;
        let variant: Variant = id.parse().map_err(|_| format!("unknown variant id {id:?}"))?;
        let mut at = 9 + id_len;
        let u32_at = |at: &mut usize| -> Result<u32, String> {
            let s = bytes.get(*at..*at + 4).ok_or("the file ends inside the header")?;
            *at += 4;
            Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        let inputs = u32_at(&mut at)? as usize;
        let hidden = u32_at(&mut at)? as usize;
        if inputs != INPUTS || !Shape::valid_width(hidden) || (!v2 && hidden != DEFAULT_HIDDEN) {
            return Err(format!(
                "the net is {inputs}→{hidden}×2→1{}; this build reads {INPUTS}→H×2→1, H 16 to {MAX_HIDDEN} in steps of 16 \
                 ({DEFAULT_HIDDEN} in version 1) (made for another version)",
                if v2 { "" } else { " (version 1)" }
            ));
        }
        let shape = if v2 {
            let s = bytes.get(at..at + 2).ok_or("the file ends inside the header")?;
            at += 2;
            let activation = *Activation::ALL
                .get(s[0] as usize)
                .ok_or_else(|| format!("unknown activation {} (0 CReLU, 1 SCReLU)", s[0]))?;
            let buckets = s[1] as usize;
            if !(1..=MAX_BUCKETS).contains(&buckets) {
                return Err(format!("{buckets} output buckets; a net has 1 to {MAX_BUCKETS}"));
            }
            let kings = if v3 {
                let k = *bytes.get(at).ok_or("the file ends inside the header")? as usize;
                at += 1;
                if (version == 3 && k == 1) || !Shape::valid_kings(k) {
                    return Err(format!(
                        "{k} king buckets; a version {version} net has {}",
                        if version == 3 { "4 or 8" } else { "1, 4 or 8" }
                    ));
                }
                k
            } else {
                1
            };
            Shape { activation, buckets, width: hidden, kings }
        } else {
            Shape::default()
        };
        // (`bytes` is past a version 4 file's layout.)
        let header = if version == 4 { 4 } else { 0 };
        if bytes.len() + header != file_len_of(id_len, shape, version) {
            return Err(format!(
                "the file has {} bytes; a {} net has {}",
                bytes.len() + header,
                shape.describe(),
                file_len_of(id_len, shape, version)
            ));
        }
        let tail = 4 * shape.buckets;
        // The length check above makes the slices the sizes `from_parts`
        // asks for.
        let i16s: Vec<i16> =
            bytes[at..bytes.len() - tail].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        let h = shape.width;
        let (w, rest) = i16s.split_at(shape.rows() * h);
        let (b, out_w) = rest.split_at(h);
        let out_b: Vec<i32> =
            bytes[bytes.len() - tail..].chunks_exact(4).map(|t| i32::from_le_bytes([t[0], t[1], t[2], t[3]])).collect();
        let mut net = Network::from_parts(variant, shape.activation, w, b, out_w, &out_b);
        net.source = source.to_string();
        Ok(net)
    }

    /// The file bytes of this network, in the oldest version that holds it
    /// ([`file_version`]: version 1 when its shape allows).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode(file_version(self.shape(), LAYOUT), LAYOUT)
    }

    /// The file bytes of this network in `version` (which must hold its
    /// shape), naming `layout` in version 4.
    pub(super) fn encode(&self, version: u8, layout: u32) -> Vec<u8> {
        let id = self.variant.id().as_bytes();
        let shape = self.shape();
        let mut out = Vec::with_capacity(file_len_of(id.len(), shape, version));
        out.extend_from_slice(match version {
            1 => MAGIC,
            2 => MAGIC2,
            3 => MAGIC3,
            _ => MAGIC4,
        });
        if version >= 4 {
            out.extend_from_slice(&layout.to_le_bytes());
        }
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(self.width as u32).to_le_bytes());
        if version >= 2 {
            out.extend_from_slice(&[shape.activation.code(), shape.buckets as u8]);
        }
        if version >= 3 {
            out.push(shape.kings as u8);
        }
        let (w, b, out_w, _) = self.parts();
        for x in w.iter().chain(b).chain(&out_w) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for x in self.out_b.iter() {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }
}
