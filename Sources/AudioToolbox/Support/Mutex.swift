import CaptureCore

/// OpenCapture's pthread-backed lock (see `Locked`), which ThreadSanitizer can see. Declared
/// in this module, it shadows `Synchronization.Mutex` for every file here.
typealias Mutex<Value> = Locked<Value>
