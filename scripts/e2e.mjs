// Scaffold: the code-server end-to-end suite replaces this.
console.log('e2e: not built yet');
