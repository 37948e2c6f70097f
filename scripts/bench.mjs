// Benchmarks land with the features they measure (address search, code verification…).
console.log('no benchmarks yet');
