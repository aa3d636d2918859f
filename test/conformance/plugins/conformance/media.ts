// The smallest valid media the conformance scenarios ask for: a 1x1 red PNG and a short silent WAV.
import { PNG } from 'pngjs';

function redPixelPng(): string {
  const png = new PNG({ width: 1, height: 1 });
  png.data.set([255, 0, 0, 255]);
  return PNG.sync.write(png).toString('base64');
}

/** 8 kHz, 8-bit mono PCM, 100 samples of silence (0x80), with its RIFF/WAVE header. */
function silentWav(): string {
  const samples = 100;
  const wav = Buffer.alloc(44 + samples, 0x80);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(8000, 28); // byte rate
  wav.writeUInt16LE(1, 32); // block align
  wav.writeUInt16LE(8, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples, 40);
  return wav.toString('base64');
}

export const RED_PIXEL_PNG = redPixelPng();
export const SILENT_WAV = silentWav();
