-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark/tshark postdissector for ai-fabric's INT block (doc/hpcc.md, "INT on the
-- wire"): 44 bytes after the BTH and its extended headers of RoCEv2 frames (UDP port
-- 4791) whose DSCP has bit 0 set, CNPs excepted. tshark decodes the RoCE headers itself
-- and shows the block as payload bytes; this adds its fields:
--
--   tshark -X lua_script:analysis/int-dissector.lua -r out/ai-fabric-0-0.pcap -V
--   tshark -X lua_script:analysis/int-dissector.lua -r FILE -T fields \
--          -e aifint.hops -e aifint.qlen_bytes

local int_proto = Proto("aifint", "ai-fabric INT block (HPCC telemetry)")
local pf = int_proto.fields
pf.version = ProtoField.uint8("aifint.version", "Version", base.DEC)
pf.hops = ProtoField.uint8("aifint.hops", "Hop count", base.DEC)
pf.slots = ProtoField.uint8("aifint.slots", "Record slots", base.DEC)
pf.echo = ProtoField.bool("aifint.echo", "Echo (an ACK's copy of the data's records)")
pf.rate = ProtoField.uint32("aifint.rate_gbps", "Link rate (Gb/s)", base.DEC)
pf.ts = ProtoField.uint32("aifint.ts_ns", "Egress time (ns, modulo 2^24)", base.DEC)
pf.tx = ProtoField.uint32("aifint.tx_units", "Transmitted bytes (128-byte units, modulo 2^20)",
                          base.DEC)
pf.qlen = ProtoField.uint32("aifint.qlen_bytes", "Egress queue length (bytes)", base.DEC)

local dscp_f = Field.new("ip.dsfield.dscp")
local dport_f = Field.new("udp.dstport")
local opcode_f = Field.new("infiniband.bth.opcode")
local reth_f = Field.new("infiniband.reth")
local immdt_f = Field.new("infiniband.immdt")
local aeth_f = Field.new("infiniband.aeth")

-- Link rate by code (bits 63..60 of a record), Gb/s.
local RATES = { [1] = 10, [2] = 25, [3] = 40, [4] = 50, [5] = 100, [6] = 200, [7] = 400,
                [8] = 800, [9] = 1600 }
local CNP = 0x81
local INT_BYTES = 44

function int_proto.dissector(tvb, pinfo, tree)
    local dscp, dport, opcode = dscp_f(), dport_f(), opcode_f()
    if not dscp or not dport or not opcode then
        return
    end
    if dport.value ~= 4791 or dscp.value % 2 == 0 or opcode.value == CNP then
        return
    end
    -- UDP header (8) starts 2 bytes before its destination port; then BTH (12).
    local off = dport.offset - 2 + 8 + 12
    if reth_f() then off = off + 16 end
    if immdt_f() then off = off + 4 end
    if aeth_f() then off = off + 4 end
    if tvb:len() < off + INT_BYTES then
        return
    end
    local t = tree:add(int_proto, tvb(off, INT_BYTES))
    t:add(pf.version, tvb(off, 1), tvb(off, 1):bitfield(0, 4))
    t:add(pf.hops, tvb(off + 1, 1))
    t:add(pf.slots, tvb(off + 2, 1))
    t:add(pf.echo, tvb(off + 3, 1), tvb(off + 3, 1):bitfield(7, 1) == 1)
    local n = math.min(tvb(off + 1, 1):uint(), tvb(off + 2, 1):uint())
    for i = 0, n - 1 do
        local r = tvb(off + 4 + 8 * i, 8)
        local hop = t:add(int_proto, r, "Hop " .. (i + 1))
        hop:add(pf.rate, r(0, 1), RATES[r:bitfield(0, 4)] or 0)
        hop:add(pf.ts, r(0, 4), r:bitfield(4, 24))
        hop:add(pf.tx, r(3, 3), r:bitfield(28, 20))
        hop:add(pf.qlen, r(6, 2), r:bitfield(48, 16) * 128)
    end
end

register_postdissector(int_proto)
