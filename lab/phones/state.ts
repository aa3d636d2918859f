/** One simulated IP phone's web server. */
export interface PhoneState {
  name: string;
  model: string;
  format: 'png' | 'bmp';
  /** Screenshots served, and requests refused (bad credentials, device not controlled by the user). */
  screenshots: number;
  refused: number;
}
