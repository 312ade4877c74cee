//! IP network functions: `cidrhost`, `cidrnetmask`, `cidrsubnet`, `cidrsubnets`, for IPv4
//! and IPv6, computed on addresses held as integers.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::{integer, number, text, Function, Outcome};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "cidrhost" => cidrhost,
        "cidrnetmask" => |a, _| {
            let net = Network::parse(&text(a, 0)?)?;
            if net.bits != 32 {
                return Err(format!(
                    "IPv6 addresses cannot have a netmask: {}",
                    text(a, 0)?
                ));
            }
            Ok(Value::String(net.show(net.mask())))
        },
        "cidrsubnet" => {
            |a, _| {
                let net = Network::parse(&text(a, 0)?)?;
                let newbits = integer(a, 1)?;
                let netnum = integer(a, 2)?;
                let len = (net.len as i64).saturating_add(newbits);
                if newbits < 0 || len > net.bits as i64 {
                    return Err(format!(
                        "insufficient address space to extend prefix of {} by {newbits}",
                        net.len
                    ));
                }
                if netnum < 0 || (newbits < 64 && netnum >= 1i64 << newbits) {
                    return Err(format!("prefix extension of {newbits} does not accommodate a subnet numbered {netnum}"));
                }
                let shift = net.bits - len as u32;
                let start = net.start() | (netnum as u128).checked_shl(shift).unwrap_or(0);
                Ok(Value::String(
                    Network {
                        addr: start,
                        len: len as u32,
                        bits: net.bits,
                    }
                    .to_string(),
                ))
            }
        }
        "cidrsubnets" => cidrsubnets,
        _ => return None,
    })
}

/// An IP network: an address, a prefix length and the address width (32 or 128).
#[derive(Clone, Copy)]
struct Network {
    addr: u128,
    len: u32,
    bits: u32,
}

impl Network {
    fn parse(s: &str) -> Result<Self, String> {
        let invalid = || format!("invalid CIDR expression: invalid CIDR address: {s}");
        let (ip, len) = s.split_once('/').ok_or_else(invalid)?;
        let ip: IpAddr = ip.parse().map_err(|_| invalid())?;
        let len: u32 = len.parse().map_err(|_| invalid())?;
        let (addr, bits) = match ip {
            IpAddr::V4(v4) => (u32::from(v4) as u128, 32),
            IpAddr::V6(v6) => (u128::from(v6), 128),
        };
        if len > bits {
            return Err(invalid());
        }
        Ok(Self { addr, len, bits })
    }

    fn mask(self) -> u128 {
        let all = if self.bits == 128 {
            u128::MAX
        } else {
            (1u128 << self.bits) - 1
        };
        if self.len == 0 {
            0
        } else {
            all & !((1u128 << (self.bits - self.len)) - 1)
        }
    }

    fn start(self) -> u128 {
        self.addr & self.mask()
    }

    fn last(self) -> u128 {
        let host = if self.bits - self.len == 128 {
            u128::MAX
        } else {
            (1u128 << (self.bits - self.len)) - 1
        };
        self.start() | host
    }

    fn show(self, addr: u128) -> String {
        if self.bits == 32 {
            Ipv4Addr::from(addr as u32).to_string()
        } else {
            Ipv6Addr::from(addr).to_string()
        }
    }
}

impl std::fmt::Display for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.show(self.start()), self.len)
    }
}

/// `cidrhost` as go-cidr's `HostBig` computes it: the host number is a big integer (here
/// a whole `f64`), a negative one counts back from the last address, and the error names
/// the number after that translation.
fn cidrhost(a: &[Value], _: &Evaluator) -> Outcome {
    let net = Network::parse(&text(a, 0)?)?;
    let hostnum = number(a, 1)?;
    if hostnum.fract() != 0.0 || !hostnum.is_finite() {
        return Err("hostnum: a whole number is required".into());
    }
    // `as u128` saturates, and no network holds 2^128 - 1 hosts past its start.
    let magnitude = hostnum.abs() as u128;
    let host_bits = net.bits - net.len;
    let max = if host_bits >= 128 {
        u128::MAX
    } else {
        (1u128 << host_bits) - 1
    };
    let addr = if hostnum < 0.0 {
        let back = magnitude - 1;
        (back <= max).then(|| net.last() - back)
    } else {
        (magnitude <= max).then(|| net.start() + magnitude)
    };
    addr.map(|addr| Value::String(net.show(addr)))
        .ok_or_else(|| {
            let shown = if hostnum < 0.0 {
                // max < 2^127 here, since a 128-bit host part accommodates every number.
                format!("-{}", magnitude - 1 - max)
            } else {
                format!("{hostnum:.0}")
            };
            format!(
                "prefix of {} does not accommodate a host numbered {shown}",
                net.len
            )
        })
}

fn cidrsubnets(a: &[Value], _: &Evaluator) -> Outcome {
    let net = Network::parse(&text(a, 0)?)?;
    let mut out = Vec::new();
    let mut current: Option<Network> = None;
    for i in 1..a.len() {
        let newbits = integer(a, i)?;
        if newbits < 1 {
            return Err("must extend prefix by at least one bit".into());
        }
        // go-cty's limit, for portability to 32-bit subnet numbers.
        if newbits > 32 {
            return Err("may not extend prefix by more than 32 bits".into());
        }
        let len = net.len as i64 + newbits;
        if len > net.bits as i64 {
            return Err(format!(
                "would extend prefix to {len} bits, which is too long for an IPv{} address",
                if net.bits == 32 { 4 } else { 6 }
            ));
        }
        let len = len as u32;
        let start = match current {
            None => net.start(),
            Some(prev) => {
                let widened = Network {
                    addr: prev.last(),
                    len,
                    bits: net.bits,
                };
                match widened.last().checked_add(1) {
                    Some(next) if net.bits == 128 || next < 1u128 << 32 => next,
                    _ => return Err("not enough remaining address space for a subnet".into()),
                }
            }
        };
        let subnet = Network {
            addr: start,
            len,
            bits: net.bits,
        };
        if subnet.start() != start || subnet.last() > net.last() {
            return Err(format!("not enough remaining address space for a subnet with a prefix of {len} bits after {}", current.map_or(String::new(), |c| c.to_string())));
        }
        out.push(Value::String(subnet.to_string()));
        current = Some(subnet);
    }
    Ok(Value::List(out.into()))
}
