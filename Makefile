# OpenCapture: the two commands a newcomer needs.
#   make demo   captures a few seconds from the default simulated camera and reports
#   make test   runs every test
SWIFT ?= swift
export PATH := $(PATH):/opt/swift/usr/bin
# Warnings are errors for the project's own builds, never in the manifest: a newer compiler's
# new warning must not break the build of a package that depends on OpenCapture.
STRICT = -Xswiftc -warnings-as-errors
# The project's own debug builds (tests, demo tools) optimise Swift too. A user's debug
# build needs no flag (scripts/test-consumer proves a frame costs less CPU than it lasts:
# the pixel kernels are pre-generated assembly); but the suite renders many seeded scenes and stills, and
# rasterising a scene is Swift code many times slower unoptimised, so the suite would take
# far longer without it (docs/PERFORMANCE.md has the cost).
FAST = -Xswiftc -O

.PHONY: deps build release demo test test-vivid test-vimc test-consumer test-tsan bench clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build $(STRICT) $(FAST)

release: deps
	$(SWIFT) build $(STRICT) -c release --product capture

demo: release
	@scripts/demo

# The V4L2 suites run inside a QEMU virtual machine with the real vivid driver (cjpeg for
# the photo suite's peer figure). The photo suite runs in a process of its own, after the
# driver suite: both unplug vivid (the driver suite reloads it at its end), and a fresh
# process discovers the reloaded camera as an app started afterwards would. Then vivid shared
# through a PipeWire daemon of the test's own (--pipewire, the plug-in beside the tests).
VIVID_TESTS = OpenCapturePackageTests.xctest --testing-library swift-testing --no-parallel
VIVID_RUN = scripts/vivid-vm --pipewire --timeout 600 --file .build/debug/OpenCapturePackageTests.xctest --file .build/debug/capture \
	--file .build/debug/libOpenCapturePipeWire.so --file /usr/bin/cjpeg:/opt/bin/cjpeg --file /usr/bin/ffmpeg -- \
	sh -c '$(VIVID_TESTS) --filter "VividDriverTests|ALSADriverTests" && $(VIVID_TESTS) --filter VividPhotoTests && \
	$(VIVID_TESTS) --filter PipeWireVividTests'

# The libcamera backend against libcamera 0.0.3 on the vimc driver, in a VM of its own
# (--vimc: vimc.ko built once by scripts/build-vimc, libcamera and its plug-in copied in), then
# the CLI on the libcamera camera and its figures against `cam --capture` (PERFORMANCE.md);
# vimc shared through PipeWire's libcamera plug-in (--pipewire: PipeWireVimcTests, before the
# driver suite, which unloads vimc); vimc unplugged and plugged in again under udevd
# (VimcHotplugTests, a process of its own: see the suite); VimcDriverTests reads the CLI's
# recording with ffprobe and fetches serve's page with curl; last, VimcRawBoardTests reloads
# vimc as a raw sensor board (scripts/vimc-raw-board.patch) and takes raw photos through
# libcamera's simple pipeline handler.
VIMC_RUN = scripts/vivid-vm --vimc --pipewire --timeout 600 --file .build/debug/OpenCapturePackageTests.xctest --file .build/debug/capture \
	--file .build/debug/libOpenCaptureLibcamera.so --file .build/debug/libOpenCapturePipeWire.so \
	--file scripts/vimc-peer-bench --file /usr/bin/ffprobe --file /usr/bin/curl -- \
	sh -c 'capture devices | grep "^libcamera:platform/vimc.0 Sensor B" && \
	capture photo --device "libcamera:platform/vimc.0 Sensor B" -o /tmp/vimc.jpg && \
	vimc-peer-bench && $(VIVID_TESTS) --filter PipeWireVimcTests && $(VIVID_TESTS) --filter VimcHotplugTests && \
	$(VIVID_TESTS) --filter VimcDriverTests && $(VIVID_TESTS) --filter VimcRawBoardTests && \
	capture photo --device "libcamera:platform/vimc.0 Sensor A" --raw --quality speed -o /tmp/sensor-a.dng'

test: build
	$(SWIFT) build --build-tests $(STRICT) $(FAST)
	scripts/run-host-tests
	scripts/test-consumer
	$(VIVID_RUN)
	$(VIMC_RUN)

# A package that depends on OpenCapture by version builds in debug and captures in real time.
test-consumer: deps
	scripts/test-consumer

# ThreadSanitizer: the concurrency suites in a TSan build of their own (.build/tsan). Any
# report fails the run (halt_on_error). Real-time tests (tagged .realTime, listed by
# scripts/tagged-tests) are skipped: TSan slows every thread several times, so no frame could
# be on time. The suites that encode with libx264 (writer,
# reader, export, movie output, brackets, faces) run in a second pass with thread-leak reports
# off: libx264's worker threads, started when the encoder opens, end without a join TSan sees,
# so every such run reports a "thread leak"; data races and lock inversions still fail the run.
# KVOAssetTests (writer, recording and export KVO) encodes too: it runs in the second pass.
TSAN_BUILD = --sanitize=thread --scratch-path .build/tsan
TSAN_SUITES = SessionStressTests|SampleBufferDisplayLayerTests|MetadataScannerStopTests|SessionLockOrderTests|SessionTeardownTests|KVO|CaptureWebServerTests|AudioCaptureTests|AudioSessionTests|PhotoReadinessTests|StillImageOutputTests|MetadataOutput|CodeDetection|SceneCode|DataOutputSynchronizerTests|FileDeckTests|LivePhotoTests|SessionRunnerTests|RouteConsumerTests|DeviceSettingsRaceTests|DeviceSettingsTests|DeviceRegistryOwnershipTests|ThirdPartyBackendTests|V4L2StillTests|V4L2MJPEGStillTests|StillStreamLayerTests|VirtualCameraOutputTests|PipeWireVirtualCameraTests|PipeWireCameraTests|PipeWireControlsTests|PipeWirePortalTests|VideoFrameExifTests
TSAN_ENCODER_SUITES = RecordingCoreTests|AssetImageGenerator|LivePhotoMovieTests|AssetWriter|AssetReader|AssetExportTests|MovieFileOutput|BracketPhotoTests|SceneFaceTests|KVOAssetTests
test-tsan: deps
	$(SWIFT) build $(STRICT) $(TSAN_BUILD) --build-tests
	realtime=$$(scripts/tagged-tests realTime .build/tsan/debug/OpenCapturePackageTests.xctest) && \
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" $(SWIFT) test $(TSAN_BUILD) --skip-build --no-parallel --filter "$(TSAN_SUITES)" --skip "$$realtime" --skip KVOAssetTests && \
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 report_thread_leaks=0" $(SWIFT) test $(TSAN_BUILD) --skip-build --no-parallel --filter "$(TSAN_ENCODER_SUITES)" --skip "$$realtime"

bench: release
	.build/release/capture bench

clean:
	rm -rf .build out

# The V4L2 backend against the real vivid driver, in a QEMU virtual machine (about a minute).
test-vivid: build
	$(SWIFT) build $(STRICT) $(FAST) --build-tests
	$(VIVID_RUN)

# The libcamera backend on vimc, in a QEMU virtual machine (about a minute).
test-vimc: build
	$(SWIFT) build $(STRICT) $(FAST) --build-tests
	$(VIMC_RUN)
