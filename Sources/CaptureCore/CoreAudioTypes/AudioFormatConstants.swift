// CoreAudioTypes.h's format IDs and format flags, with their values.

/// Linear PCM ('lpcm'), the format of uncompressed capture.
public let kAudioFormatLinearPCM: AudioFormatID = 0x6C70_636D
/// AC-3 ('ac-3').
public let kAudioFormatAC3: AudioFormatID = 0x6163_2D33
/// AC-3 packaged for IEC 60958 ('cac3').
public let kAudioFormat60958AC3: AudioFormatID = 0x6361_6333
/// Apple IMA 4:1 ADPCM ('ima4').
public let kAudioFormatAppleIMA4: AudioFormatID = 0x696D_6134
/// MPEG-4 AAC low complexity ('aac ').
public let kAudioFormatMPEG4AAC: AudioFormatID = 0x6161_6320
/// MPEG-4 CELP ('celp').
public let kAudioFormatMPEG4CELP: AudioFormatID = 0x6365_6C70
/// MPEG-4 HVXC ('hvxc').
public let kAudioFormatMPEG4HVXC: AudioFormatID = 0x6876_7863
/// MPEG-4 TwinVQ ('twvq').
public let kAudioFormatMPEG4TwinVQ: AudioFormatID = 0x7477_7671
/// MACE 3:1 ('MAC3').
public let kAudioFormatMACE3: AudioFormatID = 0x4D41_4333
/// MACE 6:1 ('MAC6').
public let kAudioFormatMACE6: AudioFormatID = 0x4D41_4336
/// µLaw 2:1 ('ulaw').
public let kAudioFormatULaw: AudioFormatID = 0x756C_6177
/// aLaw 2:1 ('alaw').
public let kAudioFormatALaw: AudioFormatID = 0x616C_6177
/// QDesign music ('QDMC').
public let kAudioFormatQDesign: AudioFormatID = 0x5144_4D43
/// QDesign2 music ('QDM2').
public let kAudioFormatQDesign2: AudioFormatID = 0x5144_4D32
/// QUALCOMM PureVoice ('Qclp').
public let kAudioFormatQUALCOMM: AudioFormatID = 0x5163_6C70
/// MPEG-1/2 layer 1 ('.mp1').
public let kAudioFormatMPEGLayer1: AudioFormatID = 0x2E6D_7031
/// MPEG-1/2 layer 2 ('.mp2').
public let kAudioFormatMPEGLayer2: AudioFormatID = 0x2E6D_7032
/// MPEG-1/2 layer 3 ('.mp3').
public let kAudioFormatMPEGLayer3: AudioFormatID = 0x2E6D_7033
/// A stream of time codes ('time').
public let kAudioFormatTimeCode: AudioFormatID = 0x7469_6D65
/// A stream of MIDI messages ('midi').
public let kAudioFormatMIDIStream: AudioFormatID = 0x6D69_6469
/// A stream of parameter values ('apvs').
public let kAudioFormatParameterValueStream: AudioFormatID = 0x6170_7673
/// Apple Lossless ('alac').
public let kAudioFormatAppleLossless: AudioFormatID = 0x616C_6163
/// MPEG-4 high-efficiency AAC ('aach').
public let kAudioFormatMPEG4AAC_HE: AudioFormatID = 0x6161_6368
/// MPEG-4 AAC low delay ('aacl').
public let kAudioFormatMPEG4AAC_LD: AudioFormatID = 0x6161_636C
/// MPEG-4 AAC enhanced low delay ('aace').
public let kAudioFormatMPEG4AAC_ELD: AudioFormatID = 0x6161_6365
/// MPEG-4 AAC enhanced low delay with SBR ('aacf').
public let kAudioFormatMPEG4AAC_ELD_SBR: AudioFormatID = 0x6161_6366
/// MPEG-4 AAC enhanced low delay version 2 ('aacg').
public let kAudioFormatMPEG4AAC_ELD_V2: AudioFormatID = 0x6161_6367
/// MPEG-4 high-efficiency AAC version 2 ('aacp').
public let kAudioFormatMPEG4AAC_HE_V2: AudioFormatID = 0x6161_6370
/// MPEG-4 spatial audio ('aacs').
public let kAudioFormatMPEG4AAC_Spatial: AudioFormatID = 0x6161_6373
/// MPEG-D unified speech and audio coding ('usac').
public let kAudioFormatMPEGD_USAC: AudioFormatID = 0x7573_6163
/// AMR narrow band ('samr').
public let kAudioFormatAMR: AudioFormatID = 0x7361_6D72
/// AMR wide band ('sawb').
public let kAudioFormatAMR_WB: AudioFormatID = 0x7361_7762
/// Audible's audio books ('AUDB').
public let kAudioFormatAudible: AudioFormatID = 0x4155_4442
/// The internet low bitrate codec ('ilbc').
public let kAudioFormatiLBC: AudioFormatID = 0x696C_6263
/// DVI/Intel IMA ADPCM (0x6D730011).
public let kAudioFormatDVIIntelIMA: AudioFormatID = 0x6D73_0011
/// Microsoft GSM 6.10 (0x6D730031).
public let kAudioFormatMicrosoftGSM: AudioFormatID = 0x6D73_0031
/// AES3 (SMPTE 302M) ('aes3').
public let kAudioFormatAES3: AudioFormatID = 0x6165_7333
/// Enhanced AC-3 ('ec-3').
public let kAudioFormatEnhancedAC3: AudioFormatID = 0x6563_2D33
/// FLAC ('flac').
public let kAudioFormatFLAC: AudioFormatID = 0x666C_6163
/// Opus ('opus').
public let kAudioFormatOpus: AudioFormatID = 0x6F70_7573
/// Apple positional audio codec ('apac').
public let kAudioFormatAPAC: AudioFormatID = 0x6170_6163

/// Samples are floating point (else integers).
public let kAudioFormatFlagIsFloat: AudioFormatFlags = 1 << 0
/// Samples are big endian (else little endian).
public let kAudioFormatFlagIsBigEndian: AudioFormatFlags = 1 << 1
/// Integer samples are signed.
public let kAudioFormatFlagIsSignedInteger: AudioFormatFlags = 1 << 2
/// Sample bits fill their bytes.
public let kAudioFormatFlagIsPacked: AudioFormatFlags = 1 << 3
/// Unpacked samples sit in the high bits of their bytes.
public let kAudioFormatFlagIsAlignedHigh: AudioFormatFlags = 1 << 4
/// Each channel's samples lie in a buffer of their own.
public let kAudioFormatFlagIsNonInterleaved: AudioFormatFlags = 1 << 5
/// The stream must not be mixed with others.
public let kAudioFormatFlagIsNonMixable: AudioFormatFlags = 1 << 6
/// Every flag clear (a value of 0 means "no flags given" elsewhere).
public let kAudioFormatFlagsAreAllClear: AudioFormatFlags = 0x8000_0000
/// The platform's byte order: little endian on Linux, so no flag.
public let kAudioFormatFlagsNativeEndian: AudioFormatFlags = 0
/// Native-endian packed 32-bit floats.
public let kAudioFormatFlagsNativeFloatPacked: AudioFormatFlags =
    kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked

/// `kAudioFormatFlagIsFloat` for linear PCM.
public let kLinearPCMFormatFlagIsFloat: AudioFormatFlags = kAudioFormatFlagIsFloat
/// `kAudioFormatFlagIsBigEndian` for linear PCM.
public let kLinearPCMFormatFlagIsBigEndian: AudioFormatFlags = kAudioFormatFlagIsBigEndian
/// `kAudioFormatFlagIsSignedInteger` for linear PCM.
public let kLinearPCMFormatFlagIsSignedInteger: AudioFormatFlags = kAudioFormatFlagIsSignedInteger
/// `kAudioFormatFlagIsPacked` for linear PCM.
public let kLinearPCMFormatFlagIsPacked: AudioFormatFlags = kAudioFormatFlagIsPacked
/// `kAudioFormatFlagIsAlignedHigh` for linear PCM.
public let kLinearPCMFormatFlagIsAlignedHigh: AudioFormatFlags = kAudioFormatFlagIsAlignedHigh
/// `kAudioFormatFlagIsNonInterleaved` for linear PCM.
public let kLinearPCMFormatFlagIsNonInterleaved: AudioFormatFlags = kAudioFormatFlagIsNonInterleaved
/// `kAudioFormatFlagIsNonMixable` for linear PCM.
public let kLinearPCMFormatFlagIsNonMixable: AudioFormatFlags = kAudioFormatFlagIsNonMixable
/// Where the fixed-point fraction bit count starts in the flags.
public let kLinearPCMFormatFlagsSampleFractionShift: AudioFormatFlags = 7
/// The bits of the flags holding the fixed-point fraction bit count.
public let kLinearPCMFormatFlagsSampleFractionMask: AudioFormatFlags = 0x3F << kLinearPCMFormatFlagsSampleFractionShift
/// `kAudioFormatFlagsAreAllClear` for linear PCM.
public let kLinearPCMFormatFlagsAreAllClear: AudioFormatFlags = kAudioFormatFlagsAreAllClear
