-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark/tshark dissector for the Ultra Ethernet Transport frames of --fabric=uet
-- (doc/uet.md): UDP port 4793, a PDS header (RUD request, RUD CC request, ACK, ACK_CC
-- with its SACK bitmap, NACK, CREDIT control packet) and, after a request, the SES standard request header. Wireshark 5.0 decodes UET itself (its `uet`
-- dissector, whose field layout this follows); Debian's tshark 4.0 does not, so this adds
-- the fields under the name `aifuet`:
--
--   tshark -X lua_script:analysis/uet-dissector.lua -r out/ai-fabric-0-0.pcap -V
--   tshark -X lua_script:analysis/uet-dissector.lua -r FILE -T fields \
--          -e aifuet.pds.type -e aifuet.pds.psn -e aifuet.ses.opcode

local uet = Proto("aifuet", "Ultra Ethernet Transport (ai-fabric)")
local pf = uet.fields
pf.type = ProtoField.uint8("aifuet.pds.type", "PDS type", base.DEC,
                           { [2] = "RUD request", [3] = "ROD request", [7] = "ACK",
                             [8] = "ACK CC", [10] = "NACK", [11] = "control",
                             [13] = "RUD CC request" })
pf.nh = ProtoField.uint8("aifuet.pds.nh", "Next header", base.DEC,
                         { [0] = "none", [3] = "SES standard request" })
pf.flags = ProtoField.uint8("aifuet.pds.flags", "Flags", base.HEX)
pf.retx = ProtoField.bool("aifuet.pds.retx", "Retransmitted (RETX)")
pf.ar = ProtoField.bool("aifuet.pds.ar", "ACK request (AR)")
pf.syn = ProtoField.bool("aifuet.pds.syn", "New PDC (SYN)")
pf.m = ProtoField.bool("aifuet.pds.m", "ECN marked (M)")
pf.psn = ProtoField.uint32("aifuet.pds.psn", "PSN", base.DEC)
pf.cack = ProtoField.uint32("aifuet.pds.cack_psn", "Cumulative ACK PSN", base.DEC)
pf.cc_type = ProtoField.uint8("aifuet.pds.ack.cc_type", "CC type", base.DEC, { [0] = "NSCC" })
pf.mpr = ProtoField.uint8("aifuet.pds.ack.mpr", "Maximum PSN range (MPR)", base.DEC)
pf.sack_offset = ProtoField.uint16("aifuet.pds.ack.sack_offset", "SACK PSN offset", base.DEC)
pf.sack_base = ProtoField.uint32("aifuet.pds.ack.sack_base", "SACK base PSN", base.DEC)
pf.sack_bitmap = ProtoField.uint64("aifuet.pds.ack.sack_bitmap", "SACK bitmap", base.HEX)
pf.sacked = ProtoField.uint8("aifuet.pds.ack.sacked", "PSNs the bitmap shows arrived", base.DEC)
pf.cc_state = ProtoField.uint64("aifuet.pds.ack.cc_state", "CC state", base.HEX)
pf.spdcid = ProtoField.uint16("aifuet.pds.spdcid", "Source PDC id", base.DEC)
pf.dpdcid = ProtoField.uint16("aifuet.pds.dpdcid", "Destination PDC id", base.DEC)
pf.nack = ProtoField.uint8("aifuet.pds.nack_code", "NACK code", base.HEX,
                           { [0x01] = "trimmed", [0x09] = "no SES message state",
                             [0x1A] = "receiver infers loss" })
pf.ccc = ProtoField.uint8("aifuet.pds.ccc_id", "CCC id", base.DEC)
pf.target = ProtoField.uint24("aifuet.pds.credit_target", "Credit target", base.DEC)
pf.ctl = ProtoField.uint8("aifuet.pds.ctl_type", "Control type", base.DEC, { [7] = "credit" })
pf.credit = ProtoField.uint32("aifuet.pds.credit", "Credit", base.DEC)
pf.vendor = ProtoField.uint8("aifuet.pds.vendor_code", "Vendor code", base.HEX)
pf.opcode = ProtoField.uint8("aifuet.ses.opcode", "SES opcode", base.DEC,
                             { [1] = "UET_WRITE", [5] = "UET_SEND" })
pf.som = ProtoField.bool("aifuet.ses.som", "Start of message (SOM)")
pf.eom = ProtoField.bool("aifuet.ses.eom", "End of message (EOM)")
pf.hd = ProtoField.bool("aifuet.ses.hd", "Header data (HD)")
pf.msg = ProtoField.uint16("aifuet.ses.message_id", "Message id", base.DEC)
pf.offset = ProtoField.uint64("aifuet.ses.buffer_offset", "Buffer offset", base.DEC)
pf.initiator = ProtoField.uint32("aifuet.ses.initiator", "Initiator", base.DEC)
pf.length = ProtoField.uint32("aifuet.ses.request_length", "Request length", base.DEC)
pf.payload = ProtoField.uint32("aifuet.payload_bytes", "Payload bytes", base.DEC)

local ip_len_f = Field.new("ip.len")

function uet.dissector(tvb, pinfo, tree)
    if tvb:len() < 12 then
        return 0
    end
    pinfo.cols.protocol = "UET"
    local t = tree:add(uet, tvb())
    local prologue = tvb(0, 2)
    local typ = prologue:bitfield(0, 5)
    local flags = prologue:bitfield(9, 7)
    t:add(pf.type, prologue, typ)
    t:add(pf.nh, prologue, prologue:bitfield(5, 4))
    t:add(pf.flags, prologue, flags)
    local info = ({ [2] = "RUD_REQ", [7] = "ACK", [8] = "ACK_CC", [10] = "NACK", [11] = "CTL",
                    [13] = "RUD_CC_REQ" })[typ] or ("PDS " .. typ)
    if typ == 2 or typ == 3 or typ == 13 then
        -- RUD_CC_REQ: 4 more bytes of CC state (CCC id, credit target) before the SES.
        local pds = typ == 13 and 16 or 12
        t:add(pf.retx, prologue, bit.band(flags, 0x10) ~= 0)
        t:add(pf.ar, prologue, bit.band(flags, 0x08) ~= 0)
        t:add(pf.syn, prologue, bit.band(flags, 0x04) ~= 0)
        t:add(pf.psn, tvb(4, 4))
        t:add(pf.spdcid, tvb(8, 2))
        t:add(pf.dpdcid, tvb(10, 2))
        info = info .. " PSN " .. tvb(4, 4):uint()
        if typ == 13 then
            t:add(pf.ccc, tvb(12, 1))
            t:add(pf.target, tvb(13, 3))
        end
        if prologue:bitfield(5, 4) == 3 and tvb:len() >= pds + 44 then
            local s = tvb(pds, 44)
            t:add(pf.opcode, s(0, 1), s(0, 1):bitfield(2, 6))
            t:add(pf.hd, s(1, 1), s(1, 1):bitfield(5, 1) == 1)
            t:add(pf.eom, s(1, 1), s(1, 1):bitfield(6, 1) == 1)
            t:add(pf.som, s(1, 1), s(1, 1):bitfield(7, 1) == 1)
            t:add(pf.msg, s(2, 2))
            t:add(pf.offset, s(8, 8))
            t:add(pf.initiator, s(16, 4))
            t:add(pf.length, s(40, 4))
            -- The payload after the headers, up to the IPv4 length (frames are padded).
            local ip_len = ip_len_f()
            local payload = (ip_len and ip_len.value or (tvb:len() + 28)) - 28 - pds - 44
            t:add(pf.payload, s(0, 0), math.max(payload, 0))
        end
    elseif typ == 7 or (typ == 8 and tvb:len() >= 32) then
        t:add(pf.m, prologue, bit.band(flags, 0x20) ~= 0)
        t:add(pf.cack, tvb(4, 4))
        t:add(pf.spdcid, tvb(8, 2))
        t:add(pf.dpdcid, tvb(10, 2))
        info = info .. " CACK " .. tvb(4, 4):uint()
        if typ == 8 then
            -- ACK_CC: CC type (4 bits), CC flags, MPR, SACK PSN offset, SACK bitmap (bit i:
            -- PSN SACK base + i arrived), CC state.
            t:add(pf.cc_type, tvb(12, 1), tvb(12, 1):bitfield(0, 4))
            t:add(pf.mpr, tvb(13, 1))
            t:add(pf.sack_offset, tvb(14, 2))
            local base = (tvb(4, 4):uint() + tvb(14, 2):uint()) % 4294967296
            t:add(pf.sack_base, tvb(14, 2), base)
            t:add(pf.sack_bitmap, tvb(16, 8))
            local hi, lo = tvb(16, 4):uint(), tvb(20, 4):uint()
            local n = 0
            for i = 0, 31 do
                n = n + bit.band(bit.rshift(hi, i), 1) + bit.band(bit.rshift(lo, i), 1)
            end
            t:add(pf.sacked, tvb(16, 8), n)
            t:add(pf.cc_state, tvb(24, 8))
            info = info .. " SACK " .. base .. " +" .. n
        end
    elseif typ == 11 and tvb:len() >= 16 then
        t:add(pf.ctl, prologue, prologue:bitfield(5, 4))
        t:add(pf.psn, tvb(4, 4))
        t:add(pf.spdcid, tvb(8, 2))
        t:add(pf.dpdcid, tvb(10, 2))
        t:add(pf.credit, tvb(12, 4))
        info = info .. " credit " .. tvb(12, 4):uint()
    elseif typ == 10 and tvb:len() >= 16 then
        t:add(pf.m, prologue, bit.band(flags, 0x20) ~= 0)
        t:add(pf.nack, tvb(2, 1))
        t:add(pf.vendor, tvb(3, 1))
        t:add(pf.psn, tvb(4, 4))
        t:add(pf.spdcid, tvb(8, 2))
        t:add(pf.dpdcid, tvb(10, 2))
        info = info .. " code " .. tvb(2, 1):uint() .. " PSN " .. tvb(4, 4):uint()
    end
    pinfo.cols.info = info
    return tvb:len()
end

DissectorTable.get("udp.port"):add(4793, uet)
