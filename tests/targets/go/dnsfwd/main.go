// SPDX-License-Identifier: GPL-2.0-or-later

// Command dnsfwd is the DNS forwarder of upfront's examples, made runnable: a server whose
// handleRequest gets each query as a *dns.Msg and answers it from fake backends (an
// in-memory table, no network). It serves a fixed sequence of queries and exits; the values
// are listed in tests/targets/README.md ("dnsfwd").
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.com/dnsfwd/dns"
)

// qkey is what the backends' table is keyed by.
type qkey struct {
	name  string
	qtype uint16
}

// classicClient is a backend resolver; Exchange answers from a table instead of the network.
type classicClient struct {
	addr  string
	table map[qkey][]dns.RR
	fail  map[string]error
	calls int
}

// Exchange sends m to the backend and returns its answer, or an error for a name the
// backend times out on.
//
//go:noinline
func (c *classicClient) Exchange(m *dns.Msg) (*dns.Msg, error) {
	c.calls++
	q := m.Question[0]
	if err, ok := c.fail[q.Name]; ok {
		return nil, err
	}
	resp := new(dns.Msg).SetReply(m)
	resp.RecursionAvailable = true
	resp.Answer = c.table[qkey{q.Name, q.Qtype}]
	return resp, nil
}

// server forwards queries to its clients, one after the other or all at once.
type server struct {
	name       string
	clients    []*classicClient
	concurrent bool
	served     int
	failed     int
	lastLog    string
}

// handleRequest is the handler the DNS library calls for every query.
//
//go:noinline
func (s *server) handleRequest(w dns.ResponseWriter, r *dns.Msg) {
	var resp *dns.Msg
	var err error
	if s.concurrent {
		resp, err = s.handleRequestConcurrent(r)
	} else {
		resp, err = s.handleRequestSerially(r)
	}
	if err != nil {
		resp = new(dns.Msg).SetReply(r)
		resp.Rcode = dns.RcodeServFail
		s.failed++
	}
	s.logRequest(w, r, resp, err)
	s.served++
	if werr := w.WriteMsg(resp); werr != nil {
		s.failed++
	}
}

// handleRequestSerially asks each client in turn until one answers.
//
//go:noinline
func (s *server) handleRequestSerially(r *dns.Msg) (*dns.Msg, error) {
	var err error
	for _, c := range s.clients {
		var resp *dns.Msg
		if resp, err = s.queryBackend(c, r); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

type result struct {
	resp *dns.Msg
	err  error
}

// handleRequestConcurrent asks every client at once, one goroutine each (func1), and takes
// the first answer in the clients' order.
//
//go:noinline
func (s *server) handleRequestConcurrent(r *dns.Msg) (*dns.Msg, error) {
	results := make([]result, len(s.clients))
	var wg sync.WaitGroup
	for i, c := range s.clients {
		wg.Add(1)
		go func(i int, c *classicClient) {
			defer wg.Done()
			resp, err := s.queryBackend(c, r)
			results[i] = result{resp, err}
		}(i, c)
	}
	wg.Wait()
	var err error
	for _, res := range results {
		if res.err == nil {
			return res.resp, nil
		}
		err = res.err
	}
	return nil, err
}

// queryBackend forwards r to one client.
//
//go:noinline
func (s *server) queryBackend(c *classicClient, r *dns.Msg) (*dns.Msg, error) {
	return c.Exchange(r)
}

// logRequest keeps a one-line summary of the request and its outcome.
//
//go:noinline
func (s *server) logRequest(w dns.ResponseWriter, r *dns.Msg, resp *dns.Msg, err error) {
	var b strings.Builder
	b.WriteString(w.RemoteAddr())
	b.WriteString(" id=")
	b.WriteString(strconv.Itoa(int(r.Id)))
	for _, q := range r.Question {
		b.WriteString(" " + q.Name + " " + strconv.Itoa(int(q.Qtype)))
	}
	b.WriteString(" rcode=" + strconv.Itoa(resp.Rcode))
	b.WriteString(" answers=" + strconv.Itoa(len(resp.Answer)))
	if err != nil {
		b.WriteString(" err=" + err.Error())
	}
	s.lastLog = b.String()
	checksum += len(s.lastLog)
}

// fakeWriter is the ResponseWriter of a client that is not there: it counts what it is sent.
type fakeWriter struct {
	remote string
	writes int
	bytes  int
	last   *dns.Msg
}

func (w *fakeWriter) RemoteAddr() string { return w.remote }

func (w *fakeWriter) WriteMsg(m *dns.Msg) error {
	b, err := m.Pack()
	if err != nil {
		return err
	}
	w.last = m
	_, err = w.Write(b)
	return err
}

func (w *fakeWriter) Write(b []byte) (int, error) {
	w.writes++
	w.bytes += len(b)
	return len(b), nil
}

func (w *fakeWriter) Close() error { return nil }

var checksum int

// query is one request of the sequence.
type query struct {
	id       uint16
	name     string
	qtype    uint16
	compress bool
	srv      *server
}

func hdr(name string, t uint16) dns.RR_Header {
	return dns.RR_Header{Name: name, Rrtype: t, Class: dns.ClassINET, Ttl: 300}
}

// newClients returns two backends with the same table; both time out on the PTR name.
func newClients() []*classicClient {
	table := map[qkey][]dns.RR{
		{"cnn.com.", dns.TypeA}: {
			&dns.A{Hdr: hdr("cnn.com.", dns.TypeA), A: [4]byte{151, 101, 3, 5}},
		},
		{"google.com.", dns.TypeAAAA}: nil,
		{"signaler-pa.clients6.google.com.", dns.TypeA}: {
			&dns.CNAME{Hdr: hdr("signaler-pa.clients6.google.com.", dns.TypeCNAME),
				Target: "clients.l.google.com."},
			&dns.A{Hdr: hdr("clients.l.google.com.", dns.TypeA), A: [4]byte{142, 250, 185, 78}},
		},
		{ip6, dns.TypePTR}: nil,
		{"example.org.", dns.TypeA}: {
			&dns.A{Hdr: hdr("example.org.", dns.TypeA), A: [4]byte{93, 184, 216, 34}},
		},
	}
	var clients []*classicClient
	for _, addr := range []string{"10.0.0.1:53", "10.0.0.2:53"} {
		clients = append(clients, &classicClient{
			addr:  addr,
			table: table,
			fail: map[string]error{
				"67.193.101.151.in-addr.arpa.": errors.New("read udp " + addr + ": i/o timeout"),
			},
		})
	}
	return clients
}

// serve sends q through the wire format to its server, as a listener would.
func serve(w *fakeWriter, q query) {
	out := new(dns.Msg).SetQuestion(q.name, q.qtype)
	out.Id = q.id
	wire, err := out.Pack()
	if err != nil {
		panic(err)
	}
	r := new(dns.Msg)
	if err := r.Unpack(wire); err != nil {
		panic(err)
	}
	r.Compress = q.compress
	q.srv.handleRequest(w, r)
}

// ip6 is a reverse name of 72 bytes: longer than one 64-byte chunk of a probe's string.
const ip6 = "4.3.2.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa."

// usage: dnsfwd [REPEAT [INTERVAL_MS]]
// REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start.
func main() {
	if ms, err := strconv.Atoi(os.Getenv("UPFT_TARGET_DELAY_MS")); err == nil {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	repeat, interval := 1, 0
	if len(os.Args) > 1 {
		repeat, _ = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) > 2 {
		interval, _ = strconv.Atoi(os.Args[2])
	}
	clients := newClients()
	s := &server{name: "serial", clients: clients}
	cs := &server{name: "concurrent", clients: clients, concurrent: true}
	seq := []query{
		{1001, "cnn.com.", dns.TypeA, false, s},
		{1002, "google.com.", dns.TypeAAAA, true, s},
		{1003, "67.193.101.151.in-addr.arpa.", dns.TypePTR, false, s},
		{1004, "signaler-pa.clients6.google.com.", dns.TypeA, true, s},
		{1005, ip6, dns.TypePTR, false, s},
		{1006, "example.org.", dns.TypeA, false, cs},
	}
	w := &fakeWriter{remote: "192.0.2.10:53211"}
	for i := 0; repeat == 0 || i < repeat; i++ {
		for _, q := range seq {
			serve(w, q)
		}
		if interval > 0 {
			time.Sleep(time.Duration(interval) * time.Millisecond)
		}
	}
	fmt.Println("dnsfwd: served", s.served+cs.served, "servfail", s.failed+cs.failed,
		"writes", w.writes, "bytes", w.bytes, "checksum", checksum)
}
