/**
 * English strings of a performance plan's test data on the performance editors' settings
 * (docs/adr/0027-load-profiles.md "Test data"). Keys start with `testData.`.
 */
export const testDataEn = {
  'testData.title': 'Test data',
  'testData.text':
    'Attach CSV files: each iteration takes the next row, and its columns are {{variables}} in URLs, headers and bodies. The first line names the columns. At most 10 MB together.',
  'testData.attach': 'Attach CSV',
  'testData.rows': '{count} rows',
  'testData.columns': 'Columns: {names}',
  'testData.remove': 'Remove {name}',
  'testData.share': 'Rows',
  'testData.share.all': 'Each row to one user of the run',
  'testData.share.user': 'Every row to each user',
  'testData.loop': 'Start over at the end',
  'testData.loopOff': 'At the end of the rows a user stops, and the result says so.',
  'testData.randomOrder': 'Shuffled order',
  'testData.tooLarge':
    '{name} is not attached: the data files would be {size} MB together, and a plan takes at most 10 MB.',
  'testData.tooMany': '{name} is not attached: a plan takes at most {max} data files.',
  'testData.readFailed': '{name} could not be read: {message}',
} as const;
