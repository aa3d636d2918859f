// Call termination causes of CDR fields origCause_value and destCause_value: the ITU-T Q.850 cause values,
// as the Call Detail Records Administration Guide's "Call Termination Cause Codes" table lists them for
// Unified CM. Cisco-specific values (above 127) are not carried here: a value this table lacks is
// reported as such, never guessed.

const Q850: Record<number, string> = {
  0: 'No error',
  1: 'Unallocated (unassigned) number',
  2: 'No route to specified transit network',
  3: 'No route to destination',
  4: 'Send special information tone',
  5: 'Misdialed trunk prefix',
  6: 'Channel unacceptable',
  7: 'Call awarded and being delivered in an established channel',
  8: 'Preemption',
  9: 'Preemption, circuit reserved for reuse',
  16: 'Normal call clearing',
  17: 'User busy',
  18: 'No user responding',
  19: 'No answer from user (user alerted)',
  20: 'Subscriber absent',
  21: 'Call rejected',
  22: 'Number changed',
  26: 'Non-selected user clearing',
  27: 'Destination out of order',
  28: 'Invalid number format (address incomplete)',
  29: 'Facility rejected',
  30: 'Response to STATUS ENQUIRY',
  31: 'Normal, unspecified',
  34: 'No circuit/channel available',
  38: 'Network out of order',
  39: 'Permanent frame mode connection out of service',
  40: 'Permanent frame mode connection operational',
  41: 'Temporary failure',
  42: 'Switching equipment congestion',
  43: 'Access information discarded',
  44: 'Requested circuit/channel not available',
  46: 'Precedence call blocked',
  47: 'Resource unavailable, unspecified',
  49: 'Quality of service not available',
  50: 'Requested facility not subscribed',
  53: 'Service operation violated',
  54: 'Incoming calls barred',
  55: 'Incoming calls barred within CUG',
  57: 'Bearer capability not authorized',
  58: 'Bearer capability not presently available',
  62: 'Inconsistency in designated outgoing access information and subscriber class',
  63: 'Service or option not available, unspecified',
  65: 'Bearer capability not implemented',
  66: 'Channel type not implemented',
  69: 'Requested facility not implemented',
  70: 'Only restricted digital information bearer capability is available',
  79: 'Service or option not implemented, unspecified',
  81: 'Invalid call reference value',
  82: 'Identified channel does not exist',
  83: 'A suspended call exists, but this call identity does not',
  84: 'Call identity in use',
  85: 'No call suspended',
  86: 'Call having the requested call identity has been cleared',
  87: 'User not member of CUG',
  88: 'Incompatible destination',
  90: 'Non-existent CUG',
  91: 'Invalid transit network selection',
  95: 'Invalid message, unspecified',
  96: 'Mandatory information element is missing',
  97: 'Message type nonexistent or not implemented',
  98: 'Message not compatible with call state or message type nonexistent or not implemented',
  99: 'Information element or parameter nonexistent or not implemented',
  100: 'Invalid information element contents',
  101: 'Message not compatible with call state',
  102: 'Recovery on timer expiry',
  103: 'Parameter nonexistent or not implemented, passed on',
  110: 'Message with unrecognized parameter discarded',
  111: 'Protocol error, unspecified',
  127: 'Interworking, unspecified',
};

export interface Cause {
  value: number;
  meaning: string;
}

/** A cause field's text decoded; undefined for an empty or non-numeric field. */
export function decodeCause(text: string | undefined): Cause | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text.trim())) return undefined;
  const value = Number(text.trim());
  return { value, meaning: Q850[value] ?? 'not in the Q.850 table this server carries' };
}
