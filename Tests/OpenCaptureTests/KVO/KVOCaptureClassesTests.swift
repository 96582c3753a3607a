import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

/// The unique IDs in a `devices` change, as the recorder prints them.
private func lists(_ text: String?, _ uniqueID: String) -> Bool { text?.contains("[\(uniqueID)]") == true }

@Suite("KVO of a discovery session's devices", .serialized)
struct KVODiscoverySessionTests {
    @Test("unplugging and re-plugging a camera notifies devices, old and new, on the session's queue; other sessions hear nothing")
    func hotPlug() throws {
        let tele = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let backs = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInTelephotoCamera], mediaType: .video, position: .back)
        let fronts = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInTelephotoCamera], mediaType: .video, position: .front)
        let recorder = KVORecorder()
        let other = KVORecorder()
        let observations = [
            backs.observe(\.devices, options: [.old, .new]) { _, change in recorder.record(change) },
            fronts.observe(\.devices, options: [.new]) { _, change in other.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        tele.simulation?.disconnect()
        let fresh = tele.simulation?.reconnect()
        #expect(fresh != nil)
        backs.keyValueObservers.changeQueue.sync {}
        fronts.keyValueObservers.changeQueue.sync {}
        let calls = recorder.calls
        #expect(calls.contains { lists($0.old, "sim:back-tele") && !lists($0.new, "sim:back-tele") }, "unplugged: gone from devices")
        #expect(calls.contains { !lists($0.old, "sim:back-tele") && lists($0.new, "sim:back-tele") }, "re-plugged: back in devices")
        #expect(calls.allSatisfy { $0.queue == "OpenCapture.kvo.discoverySession" })
        #expect(other.calls.isEmpty, "a session finding no front telephoto camera: its list did not change")
    }

    @Test("the string form on \"devices\" hears the same changes")
    func stringForm() throws {
        let tele = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let session = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInTelephotoCamera], mediaType: nil, position: .unspecified)
        let observer = StringObserver()
        session.addObserver(observer, forKeyPath: "devices", options: [.new], context: nil)
        tele.simulation?.disconnect()
        _ = tele.simulation?.reconnect()
        session.keyValueObservers.changeQueue.sync {}
        session.removeObserver(observer, forKeyPath: "devices")
        #expect(observer.keyPaths.withLock { $0 }.allSatisfy { $0 == "devices" })
        #expect(observer.recorder.calls.contains { lists($0.new, "sim:back-tele") })
    }
}

@Suite("KVO of inputs and ports", .serialized)
struct KVOInputTests {
    @Test("a port's isEnabled notifies old and new on the setter's thread, with prior; its constant mediaType only .initial")
    func portEnabled() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let input = try AVCaptureDeviceInput(device: device)
        let port = try #require(input.ports.first)
        let enabled = KVORecorder()
        let media = KVORecorder()
        let observations = [
            port.observe(\.isEnabled, options: [.old, .new, .prior]) { _, change in enabled.record(change) },
            port.observe(\.mediaType, options: [.initial, .new]) { _, change in media.record(change) },
        ]
        port.isEnabled = false
        port.isEnabled = true
        observations.forEach { $0.invalidate() }
        port.isEnabled = false
        port.isEnabled = true
        #expect(enabled.calls.map(\.isPrior) == [true, false, true, false])
        #expect(enabled.calls.map(\.old) == ["true", "true", "false", "false"])
        #expect(enabled.calls.map(\.new) == [nil, "false", nil, "true"])
        #expect(enabled.calls.allSatisfy { $0.queue == "caller" })
        #expect(media.calls.count == 1, "a constant: the .initial call only")
    }

    @Test("the string form on a port: \"enabled\"")
    func portStringForm() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let port = try #require(try AVCaptureDeviceInput(device: device).ports.first)
        let observer = StringObserver()
        port.addObserver(observer, forKeyPath: "enabled", options: [.old, .new], context: nil)
        port.isEnabled = false
        port.removeObserver(observer, forKeyPath: "enabled")
        port.isEnabled = true
        #expect(observer.recorder.calls.map(\.old) == ["1"] || observer.recorder.calls.map(\.old) == ["true"])
        #expect(observer.recorder.calls.count == 1)
    }

    @Test("a device input's switches notify old and new when set")
    func deviceInputSwitches() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let input = try AVCaptureDeviceInput(device: device)
        let unified = KVORecorder()
        let override = KVORecorder()
        let wind = KVORecorder()
        let observations = [
            input.observe(\.unifiedAutoExposureDefaultsEnabled, options: [.old, .new]) { _, change in unified.record(change) },
            input.observe(\.videoMinFrameDurationOverride, options: [.old, .new]) { _, change in override.record(change) },
            input.observe(\.isWindNoiseRemovalEnabled, options: [.old, .new]) { _, change in wind.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        input.unifiedAutoExposureDefaultsEnabled = true
        input.videoMinFrameDurationOverride = CMTime(value: 1, timescale: 15)
        input.isWindNoiseRemovalEnabled = false  // every set notifies, as Apple's automatic KVO
        #expect(unified.calls.map(\.old) == ["false"] && unified.calls.map(\.new) == ["true"])
        #expect(override.calls.count == 1 && override.calls.first?.new?.contains("15") == true)
        #expect(wind.calls.map(\.old) == ["false"] && wind.calls.map(\.new) == ["false"])
    }
}

@Suite("KVO of outputs", .serialized)
struct KVOOutputTests {
    @Test("video data output: videoSettings and alwaysDiscardsLateVideoFrames notify old and new on the setter's thread")
    func videoDataOutput() {
        let output = AVCaptureVideoDataOutput()
        let settings = KVORecorder()
        let late = KVORecorder()
        let observations = [
            output.observe(\.videoSettings, options: [.old, .new]) { _, change in settings.record(change) },
            output.observe(\.alwaysDiscardsLateVideoFrames, options: [.old, .new]) { _, change in late.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        output.alwaysDiscardsLateVideoFrames = false
        #expect(settings.calls.count == 1)
        #expect(settings.calls.first?.new?.contains("\(kCVPixelFormatType_32BGRA)") == true)
        #expect(late.calls.map(\.old) == ["true"] && late.calls.map(\.new) == ["false"])
        #expect((settings.calls + late.calls).allSatisfy { $0.queue == "caller" })
    }

    @Test("metadata output: metadataObjectTypes and rectOfInterest notify when set, with old and new")
    func metadataOutput() {
        let output = AVCaptureMetadataOutput()
        let types = KVORecorder()
        let rect = KVORecorder()
        let observations = [
            output.observe(\.metadataObjectTypes, options: [.old, .new]) { _, change in types.record(change) },
            output.observe(\.rectOfInterest, options: [.old, .new]) { _, change in rect.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        output.metadataObjectTypes = []  // outside a session no type is available; every set notifies
        output.rectOfInterest = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        #expect(types.calls.count == 1 && types.calls.first?.new?.contains("[]") == true)
        #expect(rect.calls.count == 1 && rect.calls.first?.new?.contains("0.25") == true && rect.calls.first?.old?.contains("1.0") == true)
    }

    @Test("depth and movie file outputs: isFilteringEnabled and maxRecordedDuration notify old and new")
    func depthAndMovieOutputs() {
        let depth = AVCaptureDepthDataOutput()
        let movie = AVCaptureMovieFileOutput()
        let filtering = KVORecorder()
        let duration = KVORecorder()
        let observations = [
            depth.observe(\.isFilteringEnabled, options: [.old, .new]) { _, change in filtering.record(change) },
            movie.observe(\.maxRecordedDuration, options: [.old, .new]) { _, change in duration.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        depth.isFilteringEnabled = false
        movie.maxRecordedDuration = CMTime(value: 10, timescale: 1)
        #expect(filtering.calls.map(\.old) == ["true"] && filtering.calls.map(\.new) == ["false"])
        #expect(duration.calls.count == 1 && duration.calls.first?.new?.contains("10") == true)
    }

    @Test("through a base-class type (AVCaptureOutput) an unlisted key path still notifies when set through the API")
    func baseTypedObservation() {
        let video = AVCaptureVideoDataOutput()
        let output: AVCaptureOutput = video
        let deferred = KVORecorder()
        let audio: AVCaptureOutput = AVCaptureAudioDataOutput()
        let audioDeferred = KVORecorder()
        let observations = [
            output.observe(\.isDeferredStartEnabled, options: [.old, .new, .prior]) { _, change in deferred.record(change) },
            audio.observe(\.isDeferredStartEnabled, options: [.initial, .new]) { _, change in audioDeferred.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        output.isDeferredStartEnabled = true
        video.alwaysDiscardsLateVideoFrames = false  // an unrelated set: the deferred value did not change
        #expect(deferred.calls.map(\.isPrior) == [true, false])
        #expect(deferred.calls.map(\.old) == ["false", "false"] && deferred.calls.last?.new == "true")
        #expect(audioDeferred.calls.map(\.new) == ["false"], "the .initial call")
    }

    @Test("nobody observing an output: setters find no observer after one atomic load")
    func zeroCostWhenUnobserved() {
        let output = AVCaptureVideoDataOutput()
        #expect(!output.keyValueObservers.isObserved)
        #expect(KeyValueChange.willChange(output, keys: ["videoSettings"]) == nil)
        let observation = output.observe(\.videoSettings) { _, _ in }
        #expect(output.keyValueObservers.isObserved)
        observation.invalidate()
        #expect(!output.keyValueObservers.isObserved)
    }
}
