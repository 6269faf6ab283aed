console.log('ok')
