// SPDX-License-Identifier: GPL-2.0-or-later

// Package dns is a small stand-in for github.com/miekg/dns with the same shapes (Msg with an
// embedded MsgHdr, a Question slice, RR and ResponseWriter interfaces), so the dnsfwd test
// target builds offline. It packs and unpacks the header and the question section only.
package dns

import (
	"errors"
	"strconv"
	"strings"
)

// Record types and the class used by the target.
const (
	TypeA     uint16 = 1
	TypeCNAME uint16 = 5
	TypePTR   uint16 = 12
	TypeAAAA  uint16 = 28
	ClassINET uint16 = 1

	RcodeSuccess  = 0
	RcodeServFail = 2
)

// MsgHdr is the header of a message; Msg embeds it.
type MsgHdr struct {
	Id                 uint16
	Response           bool
	Opcode             int
	Authoritative      bool
	Truncated          bool
	RecursionDesired   bool
	RecursionAvailable bool
	Zero               bool
	AuthenticatedData  bool
	CheckingDisabled   bool
	Rcode              int
}

// Question is one entry of the question section.
type Question struct {
	Name   string
	Qtype  uint16
	Qclass uint16
}

// RR_Header is the header every resource record starts with.
type RR_Header struct {
	Name     string
	Rrtype   uint16
	Class    uint16
	Ttl      uint32
	Rdlength uint16
}

// RR is a resource record.
type RR interface {
	Header() *RR_Header
	String() string
}

// A is an IPv4 address record.
type A struct {
	Hdr RR_Header
	A   [4]byte
}

// Header returns the record's header.
func (rr *A) Header() *RR_Header { return &rr.Hdr }

func (rr *A) String() string {
	ip := make([]string, 4)
	for i, b := range rr.A {
		ip[i] = strconv.Itoa(int(b))
	}
	return rr.Hdr.Name + "\tA\t" + strings.Join(ip, ".")
}

// CNAME is an alias record.
type CNAME struct {
	Hdr    RR_Header
	Target string
}

// Header returns the record's header.
func (rr *CNAME) Header() *RR_Header { return &rr.Hdr }

func (rr *CNAME) String() string { return rr.Hdr.Name + "\tCNAME\t" + rr.Target }

// Msg is a DNS message.
type Msg struct {
	MsgHdr
	Compress bool
	Question []Question
	Answer   []RR
	Ns       []RR
	Extra    []RR
}

// ResponseWriter is what a handler answers through.
type ResponseWriter interface {
	RemoteAddr() string
	WriteMsg(m *Msg) error
	Write(b []byte) (int, error)
	Close() error
}

// SetQuestion makes m a recursive query for name and type t.
func (m *Msg) SetQuestion(name string, t uint16) *Msg {
	m.RecursionDesired = true
	m.Question = []Question{{Name: name, Qtype: t, Qclass: ClassINET}}
	return m
}

// SetReply makes m a reply to request.
func (m *Msg) SetReply(request *Msg) *Msg {
	m.Id = request.Id
	m.Response = true
	m.Opcode = request.Opcode
	m.RecursionDesired = request.RecursionDesired
	m.Rcode = RcodeSuccess
	if len(request.Question) > 0 {
		m.Question = []Question{request.Question[0]}
	}
	return m
}

// ErrPack is returned for a message that does not fit the wire format.
var ErrPack = errors.New("dns: bad message")

// Pack returns the wire form of the header and the question section; answer records are
// counted but not written.
func (m *Msg) Pack() ([]byte, error) {
	b := make([]byte, 12, 512)
	b[0], b[1] = byte(m.Id>>8), byte(m.Id)
	var flags uint16
	if m.Response {
		flags |= 1 << 15
	}
	flags |= uint16(m.Opcode&0xf) << 11
	if m.RecursionDesired {
		flags |= 1 << 8
	}
	if m.RecursionAvailable {
		flags |= 1 << 7
	}
	flags |= uint16(m.Rcode & 0xf)
	b[2], b[3] = byte(flags>>8), byte(flags)
	b[5] = byte(len(m.Question))
	b[7] = byte(len(m.Answer))
	for _, q := range m.Question {
		for _, label := range strings.Split(strings.TrimSuffix(q.Name, "."), ".") {
			if len(label) == 0 || len(label) > 63 {
				return nil, ErrPack
			}
			b = append(b, byte(len(label)))
			b = append(b, label...)
		}
		b = append(b, 0, byte(q.Qtype>>8), byte(q.Qtype), byte(q.Qclass>>8), byte(q.Qclass))
	}
	return b, nil
}

// Unpack reads the header and the question section of a wire message into m. The names are
// new strings on the heap, as a server's are.
func (m *Msg) Unpack(b []byte) error {
	if len(b) < 12 {
		return ErrPack
	}
	m.Id = uint16(b[0])<<8 | uint16(b[1])
	flags := uint16(b[2])<<8 | uint16(b[3])
	m.Response = flags&(1<<15) != 0
	m.Opcode = int(flags>>11) & 0xf
	m.RecursionDesired = flags&(1<<8) != 0
	m.RecursionAvailable = flags&(1<<7) != 0
	m.Rcode = int(flags & 0xf)
	n := int(b[4])<<8 | int(b[5])
	off := 12
	m.Question = make([]Question, 0, n)
	for i := 0; i < n; i++ {
		var name []byte
		for {
			if off >= len(b) {
				return ErrPack
			}
			l := int(b[off])
			off++
			if l == 0 {
				break
			}
			if off+l > len(b) {
				return ErrPack
			}
			name = append(name, b[off:off+l]...)
			name = append(name, '.')
			off += l
		}
		if off+4 > len(b) {
			return ErrPack
		}
		m.Question = append(m.Question, Question{
			Name:   string(name),
			Qtype:  uint16(b[off])<<8 | uint16(b[off+1]),
			Qclass: uint16(b[off+2])<<8 | uint16(b[off+3]),
		})
		off += 4
	}
	return nil
}
