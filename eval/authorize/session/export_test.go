package session

// DecodeHistory is decode, for BenchmarkHistoryDecode.
var DecodeHistory = decode
