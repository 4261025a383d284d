/** English function words and conversational filler: they say nothing about which tool is wanted. */
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between ' +
    'both but by can cannot could did do does doing down during each either else even ever every few for from ' +
    'further had has have having he her here hers herself him himself his how however i if in into is it its itself ' +
    'just least less let lets like likely may me might mine more most much must my myself neither no nor not of off ' +
    'often on once only or other others otherwise our ours ourselves out over own per perhaps please quite rather ' +
    'really same she should since so some such than that the their theirs them themselves then there these they ' +
    'this those though through thus to too under until up upon us very via was we were what whatever when whenever ' +
    'where whether which while who whom whose why will with within without would yet you your yours yourself ' +
    'yourselves hey hi hello thanks thank okay ok im ive ill youre youve dont doesnt cant wont isnt arent ' +
    'want wants wanted need needs needed help helps trying try tried able kind sort lot lots bit little thing things ' +
    'stuff something anything everything someone anyone somebody anybody way ways actually basically honestly ' +
    'maybe sure also still already again etc'
  ).split(' '),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}
